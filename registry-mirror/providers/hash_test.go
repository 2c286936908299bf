package providers

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// TestHashArchive checks the hashes against what tofu computes: h1 over
// the unpacked package directory (dirhash.HashDir with no prefix, as tofu
// hashes an installed provider) and zh over the archive file.
func TestHashArchive(t *testing.T) {
	tests := []struct {
		name  string
		files []mirrortest.File
	}{
		{"one executable", []mirrortest.File{{Name: "terraform-provider-x_v1.0.0", Mode: 0o755, Body: "#!/bin/sh\n"}}},
		{"executable and docs", []mirrortest.File{
			{Name: "terraform-provider-x_v1.0.0", Mode: 0o755, Body: "binary"},
			{Name: "LICENSE", Body: "MIT"},
			{Name: "README.md", Body: "# x"},
		}},
		{"nested file", []mirrortest.File{
			{Name: "terraform-provider-x", Mode: 0o755, Body: "binary"},
			{Name: "docs/index.md", Body: "docs"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := mirrortest.ZipFile(t, dir, "x.zip", tt.files...)
			got, err := HashArchive(context.Background(), path)
			if err != nil {
				t.Fatalf("HashArchive(%q) = %v, want nil", path, err)
			}
			h1, err := dirhash.HashDir(unzip(t, path), "", dirhash.Hash1)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			want := Hashes{H1: h1, ZH: "zh:" + hex.EncodeToString(sum[:])}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("HashArchive(%q) mismatch (-want +got):\n%s", path, diff)
			}
			if diff := cmp.Diff([]string{want.H1, want.ZH}, got.List()); diff != "" {
				t.Errorf("Hashes.List() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHashArchiveErrors(t *testing.T) {
	dir := t.TempDir()
	notZip := filepath.Join(dir, "not.zip")
	if err := os.WriteFile(notZip, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		path string
		want error
	}{
		{"missing", context.Background(), filepath.Join(dir, "missing.zip"), os.ErrNotExist},
		{"not a zip", context.Background(), notZip, zip.ErrFormat},
		{"cancelled", cancelled, notZip, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := HashArchive(tt.ctx, tt.path)
			if !errors.Is(err, tt.want) {
				t.Errorf("HashArchive(%q) = %v, want %v", tt.path, err, tt.want)
			}
		})
	}
}

// TestArchiveHashes checks where hashes come from: an archive copied in by
// hand is hashed once and gets a hashes file; a store that has not seen it
// yet reads that file rather than the archive; a store keeps hashes in
// memory; a changed archive is hashed again.
func TestArchiveHashes(t *testing.T) {
	ctx := context.Background()
	const key = testHost + "/" + testNS + "/" + testType + "/terraform-provider-strata_0.1.0_linux_amd64.zip"
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			s := b.new(t)
			archives := func(s *Store) Hashes {
				t.Helper()
				got, err := s.Archives(ctx, testHost, testNS, testType, "0.1.0")
				if err != nil {
					t.Fatalf("Archives(0.1.0) = %v, want nil", err)
				}
				h := got["linux_amd64"].Hashes
				return Hashes{H1: h[0], ZH: h[1]}
			}
			hashesFileOf := func() hashesFile {
				t.Helper()
				o, err := s.st.Open(ctx, key+hashesSuffix)
				if err != nil {
					t.Fatalf("open(%s.hashes) = %v, want the hashes file", key, err)
				}
				defer o.Close()
				var hf hashesFile
				if err := json.NewDecoder(o).Decode(&hf); err != nil {
					t.Fatal(err)
				}
				return hf
			}

			// Copied in by hand: no hashes file.
			data := mirrortest.ProviderZip(t, "0.1.0")
			if err := s.st.Replace(ctx, key, data); err != nil {
				t.Fatal(err)
			}
			want := hashesOf(t, data)
			if got := archives(s); got != want {
				t.Errorf("Archives() of an archive copied in = %v, want %v", got, want)
			}
			if hf := hashesFileOf(); hf.H1 != want.H1 || hf.ZH != want.ZH || hf.Size != int64(len(data)) {
				t.Errorf("hashes file after Archives() = %+v, want %v of %d bytes", hf, want, len(data))
			}

			// A store that has not seen the archive trusts its hashes
			// file: one saying otherwise shows the archive is not read.
			info, err := s.st.Stat(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			fromFile := Hashes{H1: "h1:from-file", ZH: "zh:from-file"}
			if err := s.writeHashes(ctx, key, info, fromFile); err != nil {
				t.Fatal(err)
			}
			fresh := NewStore(s.st)
			if got := archives(fresh); got != fromFile {
				t.Errorf("Archives() of a new store = %v, want the hashes file's %v", got, fromFile)
			}
			// The first store remembers what it computed.
			if got := archives(s); got != want {
				t.Errorf("Archives() again = %v, want the remembered %v", got, want)
			}

			// A changed archive is hashed again, and its file rewritten.
			changed := mirrortest.ProviderZip(t, "0.1.0, changed by hand")
			if err := s.st.Replace(ctx, key, changed); err != nil {
				t.Fatal(err)
			}
			want = hashesOf(t, changed)
			if got := archives(fresh); got != want {
				t.Errorf("Archives() after a change = %v, want %v", got, want)
			}
			if hf := hashesFileOf(); hf.H1 != want.H1 || hf.Size != int64(len(changed)) {
				t.Errorf("hashes file after a change = %+v, want %v of %d bytes", hf, want, len(changed))
			}
		})
	}
}

// TestHashesFileOf checks when a hashes file is taken to be of an archive.
func TestHashesFileOf(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
	hf := hashesFile{H1: "h1:x", ZH: "zh:x", Size: 10, ModTime: at}
	tests := []struct {
		name string
		hf   hashesFile
		f    storage.FileInfo
		want bool
	}{
		{"same", hf, storage.FileInfo{Size: 10, ModTime: at}, true},
		{"listed to the second", hf, storage.FileInfo{Size: 10, ModTime: at.Truncate(time.Second)}, true},
		{"rounded up", hf, storage.FileInfo{Size: 10, ModTime: at.Add(400 * time.Millisecond)}, true},
		{"other size", hf, storage.FileInfo{Size: 11, ModTime: at}, false},
		{"later", hf, storage.FileInfo{Size: 10, ModTime: at.Add(2 * time.Second)}, false},
		{"earlier", hf, storage.FileInfo{Size: 10, ModTime: at.Add(-2 * time.Second)}, false},
		{"no hashes", hashesFile{Size: 10, ModTime: at}, storage.FileInfo{Size: 10, ModTime: at}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.hf.of(tt.f); got != tt.want {
				t.Errorf("hashesFile%+v.of(%+v) = %v, want %v", tt.hf, tt.f, got, tt.want)
			}
		})
	}
}

// hashesOf is the hashes of a zip archive's bytes.
func hashesOf(t *testing.T, data []byte) Hashes {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.zip")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := HashArchive(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// unzip unpacks a zip into a new directory, as tofu installs a package.
func unzip(t *testing.T, path string) string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	dir := t.TempDir()
	for _, f := range z.File {
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, f.Mode().Perm())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, r); err != nil {
			t.Fatal(err)
		}
		r.Close()
		w.Close()
	}
	return dir
}
