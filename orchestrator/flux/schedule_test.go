package flux

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/orchestrator/environment"
	"sigs.k8s.io/yaml"
)

// TestScheduleFields backs the rows of docs/terraform-fields.md of suspend, interval,
// retryInterval, disableDriftDetection, destroyResourcesOnDeletion and
// tfstate: each reaches the stack's model, and a bad value is a problem
// that names the field and a fix.
func TestScheduleFields(t *testing.T) {
	tests := []struct {
		name    string
		spec    string
		want    func(s *environment.Stack)
		problem string
	}{
		{"defaults", "{}", func(*environment.Stack) {}, ""},
		{"suspend", "suspend: true", func(s *environment.Stack) { s.Suspend = true }, ""},
		{"interval", "interval: 30m", func(s *environment.Stack) { s.Interval = 30 * time.Minute }, ""},
		{"retryInterval", "retryInterval: 90s", func(s *environment.Stack) { s.RetryInterval = 90 * time.Second }, ""},
		{"disableDriftDetection", "disableDriftDetection: true", func(s *environment.Stack) { s.DisableDriftDetection = true }, ""},
		{"destroyResourcesOnDeletion", "destroyResourcesOnDeletion: true", func(s *environment.Stack) { s.DestroyResourcesOnDeletion = true }, ""},
		{"approvePlan disable", "approvePlan: disable", func(s *environment.Stack) { s.ApprovePlan = environment.ApprovePlanDisable }, ""},
		{"forceUnlock auto", "tfstate: {forceUnlock: auto}", func(s *environment.Stack) { s.ForceUnlock = environment.ForceUnlockAuto }, ""},
		{"forceUnlock yes", "tfstate: {forceUnlock: 'yes', lockIdentifier: 0b1c}", func(s *environment.Stack) { s.ForceUnlock, s.LockIdentifier = environment.ForceUnlockYes, "0b1c" }, ""},
		{"forceUnlock yes without id", "tfstate: {forceUnlock: 'yes'}", func(s *environment.Stack) { s.ForceUnlock = environment.ForceUnlockYes },
			`spec.tfstate.forceUnlock is "yes" without spec.tfstate.lockIdentifier: strata releases only the lock a person names`},
		{"forceUnlock bad", "tfstate: {forceUnlock: always}", func(s *environment.Stack) { s.ForceUnlock = "always" },
			`spec.tfstate.forceUnlock is "always", which is not yes, no or auto`},
		{"interval bad", "interval: soon", func(*environment.Stack) {}, `spec.interval is "soon", which is not a positive duration`},
		{"retryInterval negative", "retryInterval: -1m", func(*environment.Stack) {}, `spec.retryInterval is "-1m", which is not a positive duration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var spec map[string]any
			if err := yaml.Unmarshal([]byte(tt.spec), &spec); err != nil {
				t.Fatal(err)
			}
			tf := &terraform{rendered: rendered{raw: map[string]any{"spec": spec}}}
			if err := yaml.Unmarshal([]byte(tt.spec), &tf.Spec); err != nil {
				t.Fatal(err)
			}
			tf.decoded()
			tf.Kind, tf.Metadata.Name, tf.File = kindTerraform, "t", "t.yaml"
			l := newLoader(context.Background(), "/repo", "e")
			got := l.buildStack(&kustomization{}, tf).stack
			want := &environment.Stack{Name: "t", File: "t.yaml", Layer: environment.LayerServices}
			tt.want(want)
			opts := cmp.FilterPath(func(p cmp.Path) bool {
				switch p.Last().String() {
				case ".Name", ".File", ".Layer", ".ApprovePlan", ".ForceUnlock", ".LockIdentifier", ".Suspend", ".Interval",
					".RetryInterval", ".DisableDriftDetection", ".DestroyResourcesOnDeletion":
					return false
				}
				return len(p) > 1
			}, cmp.Ignore())
			if diff := cmp.Diff(want, got, opts); diff != "" {
				t.Errorf("buildStack(%s) (-want +got):\n%s", tt.spec, diff)
			}
			var problem string
			for _, p := range l.sortedProblems() {
				if p.Message != "spec.sourceRef is missing" && p.Message != `spec.path "" is not a directory of this repository` {
					problem = p.Message
				}
			}
			if problem != tt.problem {
				t.Errorf("buildStack(%s) problem = %q, want %q", tt.spec, problem, tt.problem)
			}
		})
	}
}
