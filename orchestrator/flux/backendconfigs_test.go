package flux

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofucontroller"
)

// testLoader is a loader whose entry directory holds the ConfigMap cm
// (data region, bucket) and the Secret creds (access_key, secret_key),
// and a Terraform object t of Kustomization k with spec.
func testLoader(t *testing.T, spec string) (*loader, *built) {
	t.Helper()
	l := newLoader(context.Background(), "/repo", "e")
	l.env = &environment.Environment{}
	cm := &configMap{Data: map[string]string{"region": "us-east-1", "bucket": "states"}}
	cm.Kind, cm.Metadata.Name, cm.File = kindConfigMap, "cm", "e/cm.yaml"
	l.addConfigMap("", cm)
	sec := &secret{Data: map[string]string{"access_key": "AK", "secret_key": "SK"}}
	sec.Kind, sec.Metadata.Name, sec.File = kindSecret, "creds", "e/creds.yaml"
	l.addSecret("", sec)
	tf := &terraform{}
	if err := yaml.Unmarshal([]byte("spec:\n"+spec), tf); err != nil {
		t.Fatal(err)
	}
	tf.decoded()
	tf.Kind, tf.Metadata.Name, tf.File = kindTerraform, "t", "t.yaml"
	k := &kustomization{}
	k.Kind, k.Metadata.Name = kindKustomization, "k"
	return l, &built{stack: &environment.Stack{Name: "t"}, tf: tf, k: k}
}

// problemMessages lists the loader's problems' messages.
func problemMessages(l *loader) []string {
	var out []string
	for _, p := range l.sortedProblems() {
		out = append(out, p.Message)
	}
	return out
}

// TestCheckBackendSecrets: a backendConfigsFrom Secret the repository
// does not hold is a problem that says whether a stack writes it.
func TestCheckBackendSecrets(t *testing.T) {
	l, b := testLoader(t, "  backendConfigsFrom: [{kind: Secret, name: gone}, {kind: Secret, name: outputs}]")
	b.backendSecrets = []tofucontroller.BackendSecret{
		{Field: "spec.backendConfigsFrom[0]", Name: "gone"},
		{Field: "spec.backendConfigsFrom[1]", Name: "outputs"},
	}
	l.checkBackendSecrets(b, map[string]string{"outputs": "network"})
	want := []string{
		`spec.backendConfigsFrom[1] names Secret "outputs", which stack network writes: strata reads backend settings from the repository, not from another stack's outputs`,
		`waiting for input Secret/flux-system/gone (spec.backendConfigsFrom[0]): it is not in the repository; give it with --inputs or --kubeconfig`,
	}
	if diff := cmp.Diff(want, problemMessages(l)); diff != "" {
		t.Errorf("checkBackendSecrets problems diff (-want +got):\n%s", diff)
	}
	var inputs []diag.Input
	for _, p := range l.sortedProblems() {
		if p.Input != nil {
			inputs = append(inputs, *p.Input)
		}
	}
	if diff := cmp.Diff([]diag.Input{{Kind: kindSecret, Namespace: DefaultNamespace, Name: "gone"}}, inputs); diff != "" {
		t.Errorf("checkBackendSecrets inputs diff (-want +got):\n%s", diff)
	}
	for _, p := range l.sortedProblems() {
		if p.File != "t.yaml" || p.Fix == "" {
			t.Errorf("checkBackendSecrets problem %+v, want one naming t.yaml and a fix", p)
		}
	}
}
