package mirrortest

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// File is one entry of a zip archive.
type File struct {
	Name string
	// Mode is the entry's mode: 0o755 for an executable, fs.ModeDir|0o755
	// for a directory entry; 0 means 0o644.
	Mode fs.FileMode
	Body string
}

// Zip returns a zip archive of files, in order.
func Zip(t testing.TB, files ...File) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range files {
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: time.Unix(0, 0).UTC()}
		h.SetMode(mode)
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(f.Body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ZipFile writes a zip archive of files to dir/name and returns its path.
func ZipFile(t testing.TB, dir, name string, files ...File) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, Zip(t, files...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// ProviderZip is a minimal package of the test provider's type
// (ProviderType): its executable and a license, body making each
// version's archive different. It is no provider tofu can run; for that,
// see BuildProvider.
func ProviderZip(t testing.TB, body string) []byte {
	t.Helper()
	return Zip(t,
		File{Name: "terraform-provider-" + ProviderType + "_v" + body, Mode: 0o755, Body: body},
		File{Name: "LICENSE", Body: "MPL-2.0"},
	)
}
