package modules

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

func TestPack(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf":                     "resource \"terraform_data\" \"x\" {}\n",
		"outputs.tf":                  "output \"x\" { value = 1 }\n",
		"scripts/run.sh":              "#!/bin/sh\n",
		"modules/sub/main.tf":         "",
		".terraform.lock.hcl":         "lock",
		".terraform/modules/x.json":   "{}",
		".git/HEAD":                   "ref",
		"modules/sub/.terraform/x.tf": "no",
	}
	for name, body := range files {
		testkit.WriteFile(t, filepath.Join(dir, name), body)
	}
	if err := os.Chmod(filepath.Join(dir, "scripts/run.sh"), 0o700); err != nil {
		t.Fatal(err)
	}
	pack := func() []byte {
		t.Helper()
		var buf bytes.Buffer
		if err := Pack(context.Background(), dir, &buf); err != nil {
			t.Fatalf("Pack(%q) = %v, want nil", dir, err)
		}
		return buf.Bytes()
	}
	first := pack()
	want := []string{
		"main.tf 644 " + files["main.tf"],
		"modules/ 755 ",
		"modules/sub/ 755 ",
		"modules/sub/main.tf 644 ",
		"outputs.tf 644 " + files["outputs.tf"],
		"scripts/ 755 ",
		"scripts/run.sh 755 #!/bin/sh\n",
	}
	if diff := cmp.Diff(want, tarEntries(t, first)); diff != "" {
		t.Errorf("Pack() entries mismatch (-want +got):\n%s", diff)
	}
	if err := checkArchive(bytes.NewReader(first)); err != nil {
		t.Errorf("checkArchive(Pack()) = %v, want nil", err)
	}

	// Times and the order of creation do not change the bytes.
	later := time.Now().Add(time.Hour)
	for name := range files {
		os.Chtimes(filepath.Join(dir, name), later, later)
	}
	if second := pack(); !bytes.Equal(first, second) {
		t.Errorf("Pack() after touching the files = %d other bytes, want the same archive", len(second))
	}
	s := NewStore(storage.NewDir(t.TempDir()))
	for range 2 {
		if err := s.Add(context.Background(), "strata", "echo", "null", "1.0.0", bytes.NewReader(pack())); err != nil {
			t.Errorf("Add(Pack()) = %v, want nil, also the second time", err)
		}
	}
}

func TestPackErrors(t *testing.T) {
	withLink := t.TempDir()
	testkit.WriteFile(t, filepath.Join(withLink, "main.tf"), "")
	if err := os.Symlink("/etc/passwd", filepath.Join(withLink, "passwd")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "main.tf")
	testkit.WriteFile(t, file, "")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		dir     string
		want    error
		wantMsg string
	}{
		{"symbolic link", context.Background(), withLink, protocol.ErrInvalid, "passwd is not a regular file or a directory"},
		{"a file", context.Background(), file, protocol.ErrInvalid, "not a directory"},
		{"missing", context.Background(), filepath.Join(t.TempDir(), "none"), os.ErrNotExist, "no such file"},
		{"cancelled", cancelled, withLink, context.Canceled, "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Pack(tt.ctx, tt.dir, io.Discard)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantMsg) || !strings.HasPrefix(err.Error(), "pack module "+tt.dir) {
				t.Errorf("Pack(%q) = %v, want %v containing %q", tt.dir, err, tt.want, tt.wantMsg)
			}
		})
	}
}

// tarEntries lists a gzipped tar's entries as "name mode body", and checks
// that they carry no time or owner.
func tarEntries(t *testing.T, data []byte) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.ModTime.Unix() != 0 || h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
			t.Errorf("entry %s has time %v, owner %d:%d %q, want none", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname)
		}
		body, _ := io.ReadAll(tr)
		out = append(out, fmt.Sprintf("%s %o %s", h.Name, h.Mode, body))
	}
}
