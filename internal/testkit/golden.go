package testkit

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Generated checks that the file at path holds want, a page generated
// from a test's table; with update it writes want there first. regen is
// the command that rewrites it, for the failure's message.
func Generated(t testing.TB, path, want string, update bool, regen string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("%s is not what its table generates (-want +got); rewrite it with %s:\n%s", path, regen, diff)
	}
}
