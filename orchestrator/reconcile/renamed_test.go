package reconcile_test

import (
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/reconcile"
)

// TestRenamedError: the message names whose runs the other name holds,
// and the one fix that keeps them.
func TestRenamedError(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  reconcile.RenamedError
		want []string
	}{
		{"its own runs", reconcile.RenamedError{Stack: "a_app", Namespace: "a", Other: "app", Owner: "a/app", File: "apps/a.yaml"},
			[]string{"stack a_app does not run: its runs, state and contract are under app", "annotate Terraform a/app in apps/a.yaml with strata.dev/stack: app"}},
		{"another's runs", reconcile.RenamedError{Stack: "b_app", Namespace: "b", Other: "app", Owner: "a/app", File: "apps/a.yaml"},
			[]string{"under app are Terraform a/app's", "annotate Terraform a/app in apps/a.yaml with strata.dev/stack: app to keep them, and both run"}},
		{"an owner that left", reconcile.RenamedError{Stack: "b_app", Namespace: "b", Other: "app", Owner: "a/app"},
			[]string{"are Terraform a/app's, which left the environment", "annotate the object that is to keep them with strata.dev/stack: app"}},
		{"runs that do not say", reconcile.RenamedError{Stack: "b_app", Namespace: "b", Other: "app"},
			[]string{"recorded before strata kept their namespace", "annotate the one they are of with strata.dev/stack: app"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.err.Error()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("RenamedError(%+v).Error() = %q, want it to hold %q", tt.err, got, w)
				}
			}
		})
	}
}
