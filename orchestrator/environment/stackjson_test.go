package environment

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStackJSON: a stack's JSON (the render cache's, a runner Job's
// request) leaves its zero fields out and reads back as the same stack,
// an empty but non-nil list or map included.
func TestStackJSON(t *testing.T) {
	env, err := LoadNamespace(context.Background(), Namespace{Name: "demo", Root: t.TempDir(), Objects: readObjects(t, "testdata/cluster/demo")})
	if err != nil {
		t.Fatal(err)
	}
	empty := &Stack{Name: "empty", Vars: map[string]any{}, DependsOn: []string{}}
	for _, s := range append(env.Stacks, empty, &Stack{}) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var got Stack
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(s, &got); diff != "" {
			t.Errorf("json.Unmarshal(json.Marshal(stack %q)) mismatch (-want +got):\n%s", s.Name, diff)
		}
	}
	if b, _ := json.Marshal(&Stack{}); string(b) != "{}" {
		t.Errorf("json.Marshal(Stack{}) = %s, want {}: zero fields left out", b)
	}
}
