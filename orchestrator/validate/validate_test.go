package validate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// addDependsOn gives a Terraform object of the layered fixture a
// spec.dependsOn entry.
func addDependsOn(t *testing.T, root, file, on string) {
	t.Helper()
	p := filepath.Join(root, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "spec:\n", "spec:\n  dependsOn:\n    - name: "+on+"\n", 1)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestValidateGraphProblems(t *testing.T) {
	t.Parallel()
	const (
		baseFile = "flux-apps/platform-stacks/base/terraform.yaml"
		appFile  = "flux-apps/service-stacks/app/terraform.yaml"
		jobsFile = "flux-apps/service-stacks/jobs/terraform.yaml"
	)
	tests := []struct {
		name   string
		mutate func(t *testing.T, root string)
		want   diag.Problems
	}{
		{
			name:   "valid",
			mutate: func(*testing.T, string) {},
		},
		{
			name: "a stack that depends on a higher layer",
			mutate: func(t *testing.T, root string) {
				addDependsOn(t, root, baseFile, "app")
			},
			want: diag.Problems{
				{File: baseFile, Object: "Terraform/base", Message: `depends on "app" in layer services, a higher layer than account`,
					Fix: "a stack may only depend on stacks in its own or a lower layer: move one of them or remove the dependency"},
				{File: appFile, Object: "Terraform/app", Message: "dependency cycle: app -> cluster -> net -> base -> app",
					Fix: "remove one of these dependencies"},
			},
		},
		{
			name: "a cycle within one layer, with its whole path",
			mutate: func(t *testing.T, root string) {
				addDependsOn(t, root, appFile, "jobs")
				addDependsOn(t, root, jobsFile, "app")
			},
			want: diag.Problems{
				{File: appFile, Object: "Terraform/app", Message: "dependency cycle: app -> jobs -> app", Fix: "remove one of these dependencies"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testrepo.Fixture(t, "layered")
			tt.mutate(t, root)
			dir := filepath.Join(root, "environments", "acme", "dev")
			env, _, err := validate.Environment(context.Background(), dir)
			var ps diag.Problems
			if err != nil && !errors.As(err, &ps) {
				t.Fatalf("Validate(%q) = %v, want diag.Problems", dir, err)
			}
			// The stacks of a graph problem are blocked, with what
			// depends on them; the rest would run.
			got := environment.AllProblems(env, err)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Validate(%q) problems diff (-want +got):\n%s", dir, diff)
			}
		})
	}
}

func TestValidateReportsLoaderAndGraphProblemsTogether(t *testing.T) {
	t.Parallel()
	root := testrepo.Fixture(t, "layered")
	addDependsOn(t, root, "flux-apps/service-stacks/app/terraform.yaml", "jobs")
	addDependsOn(t, root, "flux-apps/service-stacks/jobs/terraform.yaml", "app")
	if err := os.MkdirAll(filepath.Join(root, "environments/acme/dev/extra"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "environments/acme/dev/extra/report.yaml"), []byte("spec: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "environments", "acme", "dev")
	_, _, err := validate.Environment(context.Background(), dir)
	var got diag.Problems
	if !errors.As(err, &got) {
		t.Fatalf("Validate(%q) = %v, want diag.Problems", dir, err)
	}
	var files []string
	for _, p := range got {
		files = append(files, p.File+": "+p.Message)
	}
	for _, want := range []string{
		"environments/acme/dev/extra/report.yaml: ",
		"flux-apps/service-stacks/app/terraform.yaml: dependency cycle: app -> jobs -> app",
	} {
		found := false
		for _, f := range files {
			found = found || strings.HasPrefix(f, want)
		}
		if !found {
			t.Errorf("Validate(%q) problems = %q, want one starting with %q", dir, files, want)
		}
	}
}

// TestValidateHoldsBackOnlyTheCycle checks that a cycle between two
// stacks blocks them and what depends on them, and leaves the graph of
// the others to run.
func TestValidateHoldsBackOnlyTheCycle(t *testing.T) {
	root := testrepo.Fixture(t, "layered")
	addDependsOn(t, root, "flux-apps/service-stacks/app/terraform.yaml", "jobs")
	addDependsOn(t, root, "flux-apps/service-stacks/jobs/terraform.yaml", "app")
	dir := filepath.Join(root, "environments", "acme", "dev")
	env, g, err := validate.Environment(context.Background(), dir)
	if err != nil || g == nil {
		t.Fatalf("Validate(%q) = %v, %v, want the graph of the stacks outside the cycle", dir, g, err)
	}
	var blocked, order []string
	for _, b := range env.Blocked {
		blocked = append(blocked, b.Stack)
	}
	order = g.Order()
	slices.Sort(blocked)
	slices.Sort(order)
	if diff := cmp.Diff([]string{"app", "jobs", "report"}, blocked); diff != "" {
		t.Errorf("Validate(%q) blocked diff (-want +got):\n%s", dir, diff)
	}
	if diff := cmp.Diff([]string{"base", "cluster", "net"}, order); diff != "" {
		t.Errorf("Validate(%q) graph diff (-want +got):\n%s", dir, diff)
	}
}
