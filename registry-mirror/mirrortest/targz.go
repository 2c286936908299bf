package mirrortest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io/fs"
	"testing"
	"time"
)

// TarGz returns a gzipped tar archive of files, in order, as modules are
// published. A Mode with fs.ModeDir makes a directory entry, one with
// fs.ModeSymlink a symbolic link to Body; 0 means 0o644.
func TarGz(t testing.TB, files ...File) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		h := &tar.Header{Name: f.Name, Mode: int64(mode.Perm()), ModTime: time.Unix(0, 0)}
		switch {
		case mode&fs.ModeDir != 0:
			h.Typeflag = tar.TypeDir
		case mode&fs.ModeSymlink != 0:
			h.Typeflag, h.Linkname = tar.TypeSymlink, f.Body
		default:
			h.Typeflag, h.Size = tar.TypeReg, int64(len(f.Body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(f.Body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Module is a tiny module for the module registry's tests: a
// terraform_data, which needs no provider, and an output "version" that
// says which version of the module ran.
func Module(t testing.TB, version string) []byte {
	t.Helper()
	return TarGz(t,
		File{Name: "main.tf", Body: `resource "terraform_data" "echo" {
  input = "echo ` + version + `"
}

output "version" {
  value = terraform_data.echo.output
}
`},
		File{Name: "README.md", Body: "echo " + version + "\n"},
	)
}
