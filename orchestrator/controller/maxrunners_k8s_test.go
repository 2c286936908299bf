//go:build k8s

package controller_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestControllerMaxRunnersInCluster is the issue's test 5: `strata
// controller --max-runners 2` with 10 Terraform objects ready to apply, no
// dependency between them, never has more than 2 runner Jobs active at
// once (every Job the API server reports is recorded, from its creation to
// its end), and all 10 end Ready.
func TestControllerMaxRunnersInCluster(t *testing.T) {
	const stacks, maxRunners = 10, 2
	w := newWorld(t)
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	jw := watchJobs(t, w)
	w.push("stack", "../jobs/testdata/stack", "0.1.0")
	var names []string
	for i := range stacks {
		name := fmt.Sprintf("stack-%d", i)
		names = append(names, name)
		w.apply(&v1alpha2.Terraform{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: v1alpha2.TerraformSpec{
				ApprovePlan: "auto", Path: "./",
				SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "stack"},
				Vars:      []v1alpha2.Variable{{Name: "name", Value: jsonValue(t, fmt.Sprintf("%q", name))}},
			},
		})
	}
	startController(t, w, "--max-runners", fmt.Sprint(maxRunners),
		"--leader-elect-namespace", w.ns, "--leader-elect-name", "strata-max-runners")
	for _, name := range names {
		waitFor(t, 10*time.Minute, "Terraform "+name+" Ready", func() (bool, error) {
			return strings.HasPrefix(ready(w.get(name)), "True "), nil
		})
	}
	if got := jw.Created(); len(got) != stacks {
		t.Errorf("runner jobs created = %v, want one for each of the %d stacks", got, stacks)
	}
	if got := jw.Max(); got != maxRunners {
		t.Errorf("most runner jobs active at once = %d, want %d: --max-runners bounds them, and %d stacks ready at once fill every slot", got, maxRunners, stacks)
	}
	for _, name := range names {
		if got := w.get(name).Status.LastAppliedRevision; !strings.HasPrefix(got, "0.1.0@") {
			t.Errorf("Terraform %s lastAppliedRevision = %q, want 0.1.0@…", name, got)
		}
	}
}
