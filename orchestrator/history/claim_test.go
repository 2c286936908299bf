package history

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClaim(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	never := func(string) bool { return false }
	steps := []struct {
		name  string
		owner string
		keys  []string
		gone  func(string) bool
		want  map[string]string
	}{
		{"first owner", "environments/client-b/stage", []string{"env:client-b/stage", "s3:b/client-b/stage/stacks/net.tfstate"}, never, nil},
		{"same owner again", "environments/client-b/stage", []string{"env:client-b/stage"}, never, nil},
		{"another owner", "environments/client-a/stage", []string{"env:client-b/stage", "env:free"},
			never, map[string]string{"env:client-b/stage": "environments/client-b/stage"}},
		{"nothing recorded on a conflict", "environments/other/x", []string{"env:free"}, never, nil},
		{"a gone owner passes its keys", "environments/client-c/stage", []string{"env:client-b/stage"},
			func(o string) bool { return o == "environments/client-b/stage" }, nil},
		{"the new owner holds them", "environments/client-b/stage", []string{"env:client-b/stage"},
			never, map[string]string{"env:client-b/stage": "environments/client-c/stage"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			got, err := s.Claim(ctx, st.owner, st.keys, st.gone)
			if err != nil {
				t.Fatalf("Claim(%q, %q) = %v", st.owner, st.keys, err)
			}
			if diff := cmp.Diff(st.want, got, cmpEmptyMap); diff != "" {
				t.Errorf("Claim(%q, %q) conflicts mismatch (-want +got):\n%s", st.owner, st.keys, diff)
			}
		})
	}
}

// cmpEmptyMap treats a nil and an empty map alike.
var cmpEmptyMap = cmp.FilterValues(func(a, b map[string]string) bool { return len(a) == 0 && len(b) == 0 }, cmp.Comparer(func(a, b map[string]string) bool { return true }))
