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

// runBudget is the longest one run of the test stack may take through a
// runner Job, from the Job's creation to the object's status: the pod
// starts from an image already on the node (pull policy Never), the runner
// fetches the artifact and applies one terraform_data. Measured at about
// 10 s on a quiet machine; the budget is twelve times that, for a shared
// machine of 2 cores running several test packages.
const runBudget = 2 * time.Minute

// TestControllerMaxRunnersInCluster is the issue's test 5: `strata
// controller --max-runners 2` with 10 Terraform objects ready to apply, no
// dependency between them, never has more than 2 runner Jobs active at
// once (every Job the API server reports is recorded, from its creation to
// its end, by a watch), has 2 at once at some point (the bound is reached,
// not met trivially), and all 10 end Ready with their revision applied.
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
	// The runs go in waves of maxRunners, each wave within runBudget.
	waves := (stacks + maxRunners - 1) / maxRunners
	limit := time.Duration(waves) * runBudget
	waitFor(t, limit, fmt.Sprintf("all %d Terraform objects Ready", stacks), func() (bool, error) {
		for _, name := range names {
			if tf := w.get(name); tf == nil || !strings.HasPrefix(ready(tf), "True ") {
				return false, nil
			}
		}
		return true, nil
	})
	if got := jw.Created(); len(got) != stacks {
		t.Errorf("runner jobs created = %v, want one for each of the %d stacks", got, stacks)
	}
	switch got := jw.Max(); {
	case got > maxRunners:
		t.Errorf("most runner jobs active at once = %d, want at most %d: --max-runners bounds them", got, maxRunners)
	case got < maxRunners:
		t.Errorf("most runner jobs active at once = %d, want %d: %d stacks ready at once fill every slot, else the bound is not exercised", got, maxRunners, stacks)
	}
	for _, name := range names {
		if got := w.get(name).Status.LastAppliedRevision; !strings.HasPrefix(got, "0.1.0@") {
			t.Errorf("Terraform %s lastAppliedRevision = %q, want 0.1.0@…", name, got)
		}
	}
}
