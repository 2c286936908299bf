package tofucontroller

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// TestNoteTerraform: spec.breakTheGlass and the branch planner's labels
// and annotations are accepted, with a note for validate -v, and never a
// problem.
func TestNoteTerraform(t *testing.T) {
	const glass = "Terraform/t (t.yaml): spec.breakTheGlass is accepted and changes nothing: it keeps the Tofu Controller's runner pod open for a person to repair the stack by hand, and strata keeps no runner between runs; repair with tofu in the stack's workspace (strata unlock releases a stale lock)"
	planner := func(keys string) string {
		return "Terraform/t (t.yaml): " + keys + " are the Tofu Controller branch planner's labels and annotations, accepted and read by nothing: strata plans the checkout it is given, so plan a pull request by running strata plan on its branch (-o markdown writes the review)"
	}
	tests := []struct {
		name   string
		object string
		want   []string
	}{
		{"nothing to note", "metadata: {name: t}\nspec: {path: ./x}", nil},
		{"breakTheGlass off", "metadata: {name: t}\nspec: {breakTheGlass: false}", nil},
		{"breakTheGlass", "metadata: {name: t}\nspec: {breakTheGlass: true}", []string{glass}},
		{"branch planner", `metadata:
  name: t
  labels: {infra.weave.works/branch-planner: "true", infra.weave.works/pr-id: "7", app: x}
  annotations: {infra.weave.works/comment-id: "42"}
spec: {planOnly: true}`, []string{planner("infra.weave.works/branch-planner, infra.weave.works/comment-id, infra.weave.works/pr-id")}},
		{"branchPlanner, remediation and upgradeOnInit", "metadata: {name: t}\nspec: {branchPlanner: {enablePathScope: true}, remediation: {retries: 2}, upgradeOnInit: true}", []string{
			"Terraform/t (t.yaml): spec.branchPlanner is accepted and read by nothing: it configures the Tofu Controller's branch planner, and strata plans a pull request with strata plan --base (-o markdown writes the review)",
			"Terraform/t (t.yaml): spec.remediation.retries bounds the retries under strata controller, as under the Tofu Controller; a repository's reconcile retries a failed stack at every pass, without that bound",
			"Terraform/t (t.yaml): spec.upgradeOnInit is accepted: strata's init keeps the providers the stack's lock file names, from the shared plugin cache and the mirror, rather than upgrading them",
		}},
		{"backendConfig.disable", "metadata: {name: t}\nspec: {backendConfig: {disable: true}}", []string{
			"Terraform/t (t.yaml): spec.backendConfig.disable: the module's own backend or cloud block keeps the state, through tofu alone: strata reads neither its version nor its lock between runs, so a change made outside strata shows at the stack's next plan (its drift check), a held lock is tofu's error in the run, and strata unlock releases it with tofu force-unlock",
		}},
		{"enterprise", "metadata: {name: t}\nspec: {enterprise: {a: 1}}", []string{
			"Terraform/t (t.yaml): spec.enterprise is accepted and read by nothing: the Tofu Controller keeps it as a placeholder, and reads nothing of it either",
		}},
		{"backendConfig.disable off", "metadata: {name: t}\nspec: {backendConfig: {disable: false}}", nil},
		{"both", `metadata:
  name: t
  annotations: {infra.weave.works/error-revision: main@sha1:abc}
spec: {breakTheGlass: true}`, []string{glass, planner("infra.weave.works/error-revision")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tf := &Terraform{File: "t.yaml", Spec: &Spec{}}
			if err := yaml.Unmarshal([]byte(tt.object), &tf.Raw); err != nil {
				t.Fatal(err)
			}
			var meta struct {
				Metadata struct {
					Name        string            `json:"name"`
					Labels      map[string]string `json:"labels"`
					Annotations map[string]string `json:"annotations"`
				} `json:"metadata"`
			}
			if err := yaml.Unmarshal([]byte(tt.object), &meta); err != nil {
				t.Fatal(err)
			}
			tf.Name, tf.Labels, tf.Annotations = meta.Metadata.Name, meta.Metadata.Labels, meta.Metadata.Annotations
			r := &testRender{}
			b := &builder{tf: tf, r: r}
			b.checkFields()
			if ps := r.sorted(); len(ps) > 0 {
				t.Errorf("checkFields(%s) problems = %v, want none", tt.name, ps)
			}
			if diff := cmp.Diff(tt.want, r.notes); diff != "" {
				t.Errorf("checkFields(%s) notes diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
