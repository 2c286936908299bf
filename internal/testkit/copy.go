package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Copy copies the fixture directory src into a new temporary directory,
// removed when the test ends, and returns it.
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	CopyInto(t, dst, src)
	return dst
}

// CopyInto copies the directory src into dst, creating dst. Files already
// in dst are kept; a file of src that exists in dst fails the test.
func CopyInto(t testing.TB, dst, src string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatalf("copy fixture %s to %s: %v", src, dst, err)
	}
}

// WriteFile writes body to path, making its directory (0755), as a test
// builds a fixture in place.
func WriteFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
}

// EditFile replaces the first old with new in the file root/file of a
// fixture copy; a file without old fails the test, so an edit never
// silently does nothing.
func EditFile(t testing.TB, root, file, old, new string) {
	t.Helper()
	p := filepath.Join(root, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
