package testrepo

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
)

// Copy copies the fixture directory src into a temporary repository and
// returns its root.
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// SetInit sets one key of the init ConfigMap of the environment at
// root/environments/<client>/<env>.
func SetInit(t testing.TB, root, client, env, key, value string) {
	t.Helper()
	p := filepath.Join(root, "environments", client, env, "init.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^(  ` + regexp.QuoteMeta(key) + `:).*$`)
	if !re.Match(b) {
		t.Fatalf("%s has no key %s", p, key)
	}
	b = re.ReplaceAll(b, []byte("${1} "+value))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Buffer is a log sink safe for concurrent writers.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
