package tofucontroller

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
)

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
		missing  []BackendSecret
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
			missing: []BackendSecret{{Field: "spec.backendConfigsFrom[0]", Name: "gone"}},
		},
		{
			name:     "another kind, no name",
			spec:     "  backendConfigsFrom: [{kind: Bucket, name: b}, {kind: Secret}]",
			problems: []string{`spec.backendConfigsFrom[0] (b) is of kind "Bucket"; the Tofu Controller reads ConfigMap and Secret`, "spec.backendConfigsFrom[1] has no name"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			got := b.backendConfigs()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("backendConfigs(%s) diff (-want +got):\n%s", tt.spec, diff)
			}
			if diff := cmp.Diff(tt.problems, r.messages()); diff != "" {
				t.Errorf("backendConfigs(%s) problems diff (-want +got):\n%s", tt.spec, diff)
			}
			if diff := cmp.Diff(tt.missing, b.backendSecrets); diff != "" {
				t.Errorf("backendConfigs(%s) missing Secrets diff (-want +got):\n%s", tt.spec, diff)
			}
		})
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
