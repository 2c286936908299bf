package flux

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestStackJSON: a stack's JSON (the render cache's, a runner Job's
// request) leaves its zero fields out and reads back as the same stack,
// an empty but non-nil list or map included.
func TestStackJSON(t *testing.T) {
	env, err := LoadNamespace(context.Background(), Namespace{Name: "demo", Root: t.TempDir(), Objects: readObjects(t, "testdata/cluster/demo")})
	if err != nil {
		t.Fatal(err)
	}
	empty := &environment.Stack{Name: "empty", Vars: map[string]any{}, DependsOn: []string{}}
	for _, s := range append(env.Stacks, empty, &environment.Stack{}) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var got environment.Stack
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(s, &got); diff != "" {
			t.Errorf("json.Unmarshal(json.Marshal(stack %q)) mismatch (-want +got):\n%s", s.Name, diff)
		}
	}
	if b, _ := json.Marshal(&environment.Stack{}); string(b) != "{}" {
		t.Errorf("json.Marshal(Stack{}) = %s, want {}: zero fields left out", b)
	}
}
