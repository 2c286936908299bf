package flux

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
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

// TestBackendConfigs: spec.backendConfigsFrom gives init what the Tofu
// Controller gives it, in order, and what reads nothing is a problem.
func TestBackendConfigs(t *testing.T) {
	bc := func(key, source, value string) environment.BackendConfig {
		return environment.BackendConfig{Key: key, Source: source, Value: value}
	}
	tests := []struct {
		name     string
		spec     string
		want     []environment.BackendConfig
		problems []string
		missing  []missingRef
	}{
		{
			name: "every key, sorted, ConfigMap then Secret",
			spec: "  backendConfigsFrom: [{kind: ConfigMap, name: cm}, {kind: Secret, name: creds}]",
			want: []environment.BackendConfig{
				bc("bucket", "ConfigMap cm key bucket", "states"), bc("region", "ConfigMap cm key region", "us-east-1"),
				bc("access_key", "Secret creds key access_key", "AK"), bc("secret_key", "Secret creds key secret_key", "SK"),
			},
		},
		{
			name: "keys, in their order",
			spec: "  backendConfigsFrom: [{kind: Secret, name: creds, keys: [secret_key, access_key]}]",
			want: []environment.BackendConfig{bc("secret_key", "Secret creds key secret_key", "SK"), bc("access_key", "Secret creds key access_key", "AK")},
		},
		{
			name:     "a missing key of a non-optional entry",
			spec:     "  backendConfigsFrom: [{kind: ConfigMap, name: cm, keys: [nope]}, {kind: Secret, name: creds, keys: [token]}]",
			problems: []string{`spec.backendConfigsFrom[0] names key "nope" of ConfigMap cm, which has no such key`, `spec.backendConfigsFrom[1] names key "token" of Secret creds, which has no such key`},
		},
		{
			name: "a missing key of an optional entry: a Secret's is empty, a ConfigMap's left out",
			spec: "  backendConfigsFrom: [{kind: ConfigMap, name: cm, keys: [nope, bucket], optional: true}, {kind: Secret, name: creds, keys: [token], optional: true}]",
			want: []environment.BackendConfig{bc("bucket", "ConfigMap cm key bucket", "states"), bc("token", "Secret creds key token", "")},
		},
		{
			name: "a missing optional Secret gives its keys empty, a ConfigMap nothing",
			spec: "  backendConfigsFrom: [{kind: Secret, name: gone, keys: [access_key], optional: true}, {kind: ConfigMap, name: gone, optional: true}]",
			want: []environment.BackendConfig{bc("access_key", "Secret gone (optional, missing)", "")},
		},
		{
			name:     "a missing ConfigMap is waited for, as every input from the cluster",
			spec:     "  backendConfigsFrom: [{kind: ConfigMap, name: gone}]",
			problems: []string{`waiting for input ConfigMap/flux-system/gone (spec.backendConfigsFrom[0]): it is not in the repository; give it with --inputs or --kubeconfig`},
		},
		{
			name:    "a missing Secret is checked with the other stacks",
			spec:    "  backendConfigsFrom: [{kind: Secret, name: gone}]",
			missing: []missingRef{{field: "spec.backendConfigsFrom[0]", name: "gone"}},
		},
		{
			name:     "another kind, no name",
			spec:     "  backendConfigsFrom: [{kind: Bucket, name: b}, {kind: Secret}]",
			problems: []string{`spec.backendConfigsFrom[0] (b) is of kind "Bucket"; the Tofu Controller reads ConfigMap and Secret`, "spec.backendConfigsFrom[1] has no name"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, b := testLoader(t, tt.spec)
			got := l.backendConfigs(b)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("backendConfigs(%s) diff (-want +got):\n%s", tt.spec, diff)
			}
			if diff := cmp.Diff(tt.problems, problemMessages(l)); diff != "" {
				t.Errorf("backendConfigs(%s) problems diff (-want +got):\n%s", tt.spec, diff)
			}
			if diff := cmp.Diff(tt.missing, b.backendSecrets, cmp.AllowUnexported(missingRef{})); diff != "" {
				t.Errorf("backendConfigs(%s) missing Secrets diff (-want +got):\n%s", tt.spec, diff)
			}
		})
	}
}

// TestCheckBackendSecrets: a backendConfigsFrom Secret the repository
// does not hold is a problem that says whether a stack writes it.
func TestCheckBackendSecrets(t *testing.T) {
	l, b := testLoader(t, "  backendConfigsFrom: [{kind: Secret, name: gone}, {kind: Secret, name: outputs}]")
	l.backendConfigs(b)
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

// TestBackendConfigHidesValue: a backend setting's value never reaches a
// message through fmt.
func TestBackendConfigHidesValue(t *testing.T) {
	b := environment.BackendConfig{Key: "secret_key", Source: "Secret creds key secret_key", Value: "SENTINEL"}
	e := environment.EnvVar{Name: "AWS_SECRET_ACCESS_KEY", Source: "value", Value: "SENTINEL"}
	for _, s := range []string{fmtAll(b), fmtAll(e), fmtAll([]environment.BackendConfig{b}), fmtAll(environment.Run{BackendConfigs: []environment.BackendConfig{b}, Env: []environment.EnvVar{e}})} {
		if cmp.Equal(s, "") || containsSentinel(s) {
			t.Errorf("formatted %q, want the value left out", s)
		}
	}
}

func fmtAll(v any) string { return fmt.Sprintf("%v %+v %#v %s", v, v, v, v) }

func containsSentinel(s string) bool { return strings.Contains(s, "SENTINEL") }
