package testrepo

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// Fixture copies the orchestrator's test repository testdata/<name> into
// a temporary directory the test may change, and returns its root. It is
// for the tests of a package directly under orchestrator/, which run in
// that package's directory.
func Fixture(t testing.TB, name string) string {
	t.Helper()
	return testkit.Copy(t, filepath.Join("..", "testdata", name))
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
