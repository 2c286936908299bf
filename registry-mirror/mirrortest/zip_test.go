package mirrortest

import (
	"archive/zip"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestZip(t *testing.T) {
	// The zip round trip itself is the mirror's tests' business; here,
	// the default mode and the order.
	dir := t.TempDir()
	path := ZipFile(t, dir, "x.zip", File{Name: "b", Body: "B"}, File{Name: "a", Mode: 0o755, Body: "A"})
	z := openZip(t, path)
	var got []string
	for _, f := range z.File {
		got = append(got, f.Name+" "+f.Mode().String())
	}
	if diff := cmp.Diff([]string{"b -rw-r--r--", "a -rwxr-xr-x"}, got); diff != "" {
		t.Errorf("ZipFile() entries mismatch (-want +got):\n%s", diff)
	}
}

func openZip(t *testing.T, path string) *zip.Reader {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("zip.OpenReader(%q) = %v", path, err)
	}
	t.Cleanup(func() { z.Close() })
	return &z.Reader
}
