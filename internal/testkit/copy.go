package testkit

import (
	"os"
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
