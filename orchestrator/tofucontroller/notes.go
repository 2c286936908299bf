package tofucontroller

import (
	"fmt"
	"slices"
	"strings"
)

// The labels and annotations the Tofu Controller's branch planner puts on
// the Terraform objects it makes for a pull request, and reads back.
var branchPlannerKeys = []string{
	"infra.weave.works/branch-planner",
	"infra.weave.works/pr-id",
	"infra.weave.works/primary-resource",
	"infra.weave.works/comment-id",
	"infra.weave.works/error-revision",
}

// noteTerraform notes what a Terraform object asks of the Tofu Controller
// that strata accepts and does without: spec.breakTheGlass, and the branch
// planner's labels and annotations. validate -v shows the notes.
func (b *builder) noteTerraform() {
	tf := b.tf
	spec, _ := tf.Raw["spec"].(map[string]any)
	if on, _ := spec["breakTheGlass"].(bool); on {
		b.r.Note(fmt.Sprintf(
			"%s (%s): spec.breakTheGlass is accepted and changes nothing: it keeps the Tofu Controller's runner pod open for a person to repair the stack by hand, and strata keeps no runner between runs; repair with tofu in the stack's workspace (strata unlock releases a stale lock)",
			tf.ref(), tf.File))
	}
	if _, ok := spec["branchPlanner"]; ok {
		b.r.Note(fmt.Sprintf(
			"%s (%s): spec.branchPlanner is accepted and read by nothing: it configures the Tofu Controller's branch planner, and strata plans a pull request with strata plan --base (-o markdown writes the review)",
			tf.ref(), tf.File))
	}
	if r, ok := spec["remediation"].(map[string]any); ok && !isZero(r["retries"]) {
		b.r.Note(fmt.Sprintf(
			"%s (%s): spec.remediation.retries bounds the retries under strata controller, as under the Tofu Controller; a repository's reconcile retries a failed stack at every pass, without that bound",
			tf.ref(), tf.File))
	}
	if bc, _ := spec["backendConfig"].(map[string]any); bc["disable"] == true {
		b.r.Note(fmt.Sprintf(
			"%s (%s): spec.backendConfig.disable: the module's own backend or cloud block keeps the state, through tofu alone: strata reads neither its version nor its lock between runs, so a change made outside strata shows at the stack's next plan (its drift check), a held lock is tofu's error in the run, and strata unlock releases it with tofu force-unlock",
			tf.ref(), tf.File))
	}
	if e, ok := spec["enterprise"]; ok && !isZero(e) {
		b.r.Note(fmt.Sprintf(
			"%s (%s): spec.enterprise is accepted and read by nothing: the Tofu Controller keeps it as a placeholder, and reads nothing of it either",
			tf.ref(), tf.File))
	}
	if up, ok := spec["upgradeOnInit"].(bool); ok && up {
		b.r.Note(fmt.Sprintf(
			"%s (%s): spec.upgradeOnInit is accepted: strata's init keeps the providers the stack's lock file names, from the shared plugin cache and the mirror, rather than upgrading them",
			tf.ref(), tf.File))
	}
	var keys []string
	for _, k := range branchPlannerKeys {
		_, label := tf.Labels[k]
		_, annotation := tf.Annotations[k]
		if label || annotation {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		slices.Sort(keys)
		b.r.Note(fmt.Sprintf(
			"%s (%s): %s are the Tofu Controller branch planner's labels and annotations, accepted and read by nothing: strata plans the checkout it is given, so plan a pull request by running strata plan on its branch (-o markdown writes the review)",
			tf.ref(), tf.File, strings.Join(keys, ", ")))
	}
}
