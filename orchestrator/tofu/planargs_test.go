package tofu

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanArgs(t *testing.T) {
	base := []string{"plan", "-no-color", "-input=false", "-detailed-exitcode", "-json"}
	tests := []struct {
		name string
		opts PlanOptions
		want []string
	}{
		{"under the lock", PlanOptions{Out: "p"}, append(base[:5:5], "-lock=true", "-lock-timeout=0s", "-out=p")},
		{"lock timeout", PlanOptions{Out: "p", LockTimeout: "5m"}, append(base[:5:5], "-lock=true", "-lock-timeout=5m", "-out=p")},
		{"no lock (spec.plan.lock: false)", PlanOptions{Out: "p", NoLock: true}, append(base[:5:5], "-lock=false", "-out=p")},
		{"var files, destroy, targets", PlanOptions{Out: "p", VarFiles: []string{"a", "b"}, Destroy: true, Targets: []string{"x.y"}},
			append(base[:5:5], "-lock=true", "-lock-timeout=0s", "-out=p", "-var-file=a", "-var-file=b", "-destroy", "-target=x.y")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, planArgs(tt.opts)); diff != "" {
				t.Errorf("planArgs(%+v) mismatch (-want +got):\n%s", tt.opts, diff)
			}
		})
	}
}
