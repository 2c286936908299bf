package testrepo

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

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
