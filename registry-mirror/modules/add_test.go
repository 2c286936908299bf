package modules

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

func TestAdd(t *testing.T) {
	ctx := context.Background()
	for _, b := range mirrortest.Storages {
		t.Run(b.Name, func(t *testing.T) {
			s := NewStore(b.New(t))
			data := mirrortest.Module(t, "1.0.0")
			if err := s.Add(ctx, "strata", "echo", "null", "1.0.0", bytes.NewReader(data)); err != nil {
				t.Fatalf("Add(1.0.0) = %v, want nil", err)
			}
			key := "modules/strata/echo/null/1.0.0.tar.gz"
			if got := mirrortest.ReadKey(t, s.st, key); !bytes.Equal(got, data) {
				t.Errorf("%s = %d bytes, want the %d uploaded", key, len(got), len(data))
			}
			t.Run("same bytes again", func(t *testing.T) {
				if err := s.Add(ctx, "strata", "echo", "null", "1.0.0", bytes.NewReader(data)); err != nil {
					t.Errorf("Add(same bytes) = %v, want nil", err)
				}
			})
			t.Run("different bytes", func(t *testing.T) {
				err := s.Add(ctx, "strata", "echo", "null", "1.0.0", bytes.NewReader(mirrortest.Module(t, "other")))
				if !errors.Is(err, protocol.ErrExists) || !strings.Contains(err.Error(), "add module strata/echo/null 1.0.0: archive 1.0.0.tar.gz") {
					t.Errorf("Add(different bytes) = %v, want protocol.ErrExists naming the archive", err)
				}
				if got := mirrortest.ReadKey(t, s.st, key); !bytes.Equal(got, data) {
					t.Errorf("%s changed, want the first upload kept", key)
				}
			})
			t.Run("normalized to lower case", func(t *testing.T) {
				if err := s.Add(ctx, "Strata", "Echo", "NULL", "1.1.0", bytes.NewReader(mirrortest.Module(t, "1.1.0"))); err != nil {
					t.Fatalf("Add(mixed case) = %v, want nil", err)
				}
				if _, err := s.st.Stat(ctx, "modules/strata/echo/null/1.1.0.tar.gz"); err != nil {
					t.Errorf("stat(1.1.0 archive) = %v, want it stored under lower-case names", err)
				}
			})
		})
	}
}

func TestAddRejects(t *testing.T) {
	mainTF := mirrortest.File{Name: "main.tf", Body: `output "x" { value = 1 }`}
	tests := []struct {
		name    string
		ns      string
		version string
		archive []byte
		want    error
		wantMsg string
	}{
		{"not gzip", "strata", "1.0.0", []byte("PK\x03\x04 a zip"), protocol.ErrInvalid, "want a gzipped tar"},
		{"gzip but not tar", "strata", "1.0.0", gzipped(t, "plain text, no tar"), protocol.ErrInvalid, "module archive"},
		{"truncated", "strata", "1.0.0", mirrortest.Module(t, "1.0.0")[:60], protocol.ErrInvalid, "module archive"},
		{"no module file", "strata", "1.0.0", mirrortest.TarGz(t, mirrortest.File{Name: "README.md"}), protocol.ErrInvalid, "no .tf or .tofu file at its top level"},
		{"module one level down", "strata", "1.0.0", mirrortest.TarGz(t,
			mirrortest.File{Name: "echo/", Mode: fs.ModeDir | 0o755}, mirrortest.File{Name: "echo/main.tf", Body: "x"}), protocol.ErrInvalid, "no .tf or .tofu file at its top level"},
		{"a directory named like a file", "strata", "1.0.0", mirrortest.TarGz(t, mirrortest.File{Name: "main.tf/", Mode: fs.ModeDir | 0o755}), protocol.ErrInvalid, "no .tf or .tofu file"},
		{"symlink", "strata", "1.0.0", mirrortest.TarGz(t, mainTF, mirrortest.File{Name: "link.tf", Mode: fs.ModeSymlink | 0o777, Body: "/etc/passwd"}), protocol.ErrInvalid, `"link.tf" is not a regular file or a directory`},
		{"path leaving the archive", "strata", "1.0.0", mirrortest.TarGz(t, mainTF, mirrortest.File{Name: "../evil.tf"}), protocol.ErrInvalid, `file name "../evil.tf"`},
		{"absolute path", "strata", "1.0.0", mirrortest.TarGz(t, mainTF, mirrortest.File{Name: "/etc/evil"}), protocol.ErrInvalid, `file name "/etc/evil"`},
		{"backslash", "strata", "1.0.0", mirrortest.TarGz(t, mainTF, mirrortest.File{Name: `a\b.tf`}), protocol.ErrInvalid, `file name "a\\b.tf"`},
		{"v in version", "strata", "v1.0.0", mirrortest.Module(t, "1"), protocol.ErrInvalid, `version "v1.0.0"`},
		{"short version", "strata", "1.0", mirrortest.Module(t, "1"), protocol.ErrInvalid, `version "1.0"`},
		{"build metadata", "strata", "1.0.0+abc", mirrortest.Module(t, "1"), protocol.ErrInvalid, `version "1.0.0+abc"`},
		{"leading zero in pre-release", "strata", "1.0.0-rc.01", mirrortest.Module(t, "1"), protocol.ErrInvalid, `version "1.0.0-rc.01"`},
		{"bad namespace", "-strata", "1.0.0", mirrortest.Module(t, "1"), protocol.ErrInvalid, `module namespace "-strata"`},
		{"dot dot namespace", "..", "1.0.0", mirrortest.Module(t, "1"), protocol.ErrInvalid, `module namespace ".."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := NewStore(storage.NewDir(dir))
			err := s.Add(context.Background(), tt.ns, "echo", "null", tt.version, bytes.NewReader(tt.archive))
			if !errors.Is(err, tt.want) || err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("Add(%s %s) = %v, want %v containing %q", tt.ns, tt.version, err, tt.want, tt.wantMsg)
			}
			if !strings.HasPrefix(err.Error(), "add module ") {
				t.Errorf("Add() = %q, want it to start with \"add module \"", err)
			}
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					t.Errorf("Add() left %s behind", p)
				}
				return nil
			})
		})
	}
}

func TestAddCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := NewStore(storage.NewDir(t.TempDir())).Add(ctx, "strata", "echo", "null", "1.0.0", bytes.NewReader(mirrortest.Module(t, "1")))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Add(cancelled) = %v, want context.Canceled", err)
	}
}

// TestCheckArchiveAccepts checks archives as common tools pack them.
func TestCheckArchiveAccepts(t *testing.T) {
	tests := []struct {
		name    string
		archive []byte
	}{
		{"tar -C dir .", mirrortest.TarGz(t,
			mirrortest.File{Name: "./", Mode: fs.ModeDir | 0o755},
			mirrortest.File{Name: "./main.tf", Body: "x"},
			mirrortest.File{Name: "./modules/", Mode: fs.ModeDir | 0o755},
			mirrortest.File{Name: "./modules/sub.tf", Body: "x"})},
		{".tofu file", mirrortest.TarGz(t, mirrortest.File{Name: "main.tofu", Body: "x"})},
		{".tf.json file", mirrortest.TarGz(t, mirrortest.File{Name: "main.tf.json", Body: "{}"})},
		{"git archive", gitArchive(t)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkArchive(bytes.NewReader(tt.archive)); err != nil {
				t.Errorf("checkArchive(%s) = %v, want nil", tt.name, err)
			}
		})
	}
}

// gitArchive is a module packed as git archive packs one: with a pax
// global header holding the commit.
func gitArchive(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	headers := []*tar.Header{
		{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: map[string]string{"comment": "0123456789abcdef"}, Format: tar.FormatPAX},
		{Typeflag: tar.TypeReg, Name: "main.tf", Mode: 0o644, Size: 1},
	}
	for _, h := range headers {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			tw.Write([]byte("x"))
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// gzipped is data compressed with gzip.
func gzipped(t *testing.T, data string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(data))
	zw.Close()
	return buf.Bytes()
}
