package tofucontroller

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestRunnerEnv: spec.runnerPodTemplate.spec.env and envFrom become
// tofu's environment as the kubelet makes a container's.
func TestRunnerEnv(t *testing.T) {
	ev := func(name, source, value string) environment.EnvVar {
		return environment.EnvVar{Name: name, Source: source, Value: value}
	}
	tests := []struct {
		name     string
		spec     string
		want     []environment.EnvVar
		problems []string
	}{
		{
			name: "value, secretKeyRef, configMapKeyRef",
			spec: `  runnerPodTemplate:
    spec:
      env:
        - {name: TF_VAR_region, value: eu-west-1}
        - {name: AWS_ACCESS_KEY_ID, valueFrom: {secretKeyRef: {name: creds, key: access_key}}}
        - {name: BUCKET, valueFrom: {configMapKeyRef: {name: cm, key: bucket}}}`,
			want: []environment.EnvVar{
				ev("AWS_ACCESS_KEY_ID", "Secret creds key access_key", "AK"),
				ev("BUCKET", "ConfigMap cm key bucket", "states"),
				ev("TF_VAR_region", "value", "eu-west-1"),
			},
		},
		{
			name: "envFrom with prefixes, env over it, later sources winning",
			spec: `  runnerPodTemplate:
    spec:
      envFrom:
        - {prefix: TF_VAR_, configMapRef: {name: cm}}
        - {secretRef: {name: creds}}
        - {prefix: TF_VAR_, secretRef: {name: creds}}
        - {secretRef: {name: gone, optional: true}}
      env:
        - {name: access_key, value: overridden}`,
			want: []environment.EnvVar{
				ev("TF_VAR_access_key", "Secret creds key access_key", "AK"),
				ev("TF_VAR_bucket", "ConfigMap cm key bucket", "states"),
				ev("TF_VAR_region", "ConfigMap cm key region", "us-east-1"),
				ev("TF_VAR_secret_key", "Secret creds key secret_key", "SK"),
				ev("access_key", "value", "overridden"),
				ev("secret_key", "Secret creds key secret_key", "SK"),
			},
		},
		{
			name: "$(VAR) expands what is defined before",
			spec: `  runnerPodTemplate:
    spec:
      envFrom: [{configMapRef: {name: cm}}]
      env:
        - {name: A, value: "s3://$(bucket)/$(later)/$$(bucket)/$(nope)"}
        - {name: later, value: x}`,
			want: []environment.EnvVar{
				ev("A", "value", "s3://states/$(later)/$(bucket)/$(nope)"),
				ev("bucket", "ConfigMap cm key bucket", "states"),
				ev("later", "value", "x"),
				ev("region", "ConfigMap cm key region", "us-east-1"),
			},
		},
		{
			name: "an optional reference to nothing sets nothing",
			spec: `  runnerPodTemplate:
    spec:
      env:
        - {name: A, valueFrom: {secretKeyRef: {name: gone, key: k, optional: true}}}
        - {name: B, valueFrom: {secretKeyRef: {name: creds, key: nope, optional: true}}}`,
		},
		{
			name: "what reads nothing, or cannot be read here",
			spec: `  runnerPodTemplate:
    spec:
      envFrom:
        - {secretRef: {name: gone}}
        - {secretRef: {name: creds}, configMapRef: {name: cm}}
      env:
        - {name: A, valueFrom: {secretKeyRef: {name: creds, key: nope}}}
        - {name: B, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
        - {name: C, valueFrom: {configMapKeyRef: {name: gone, key: k}}}
        - {name: TF_WORKSPACE, value: blue}
        - {name: "A=B", value: x}`,
			problems: []string{
				"spec.runnerPodTemplate.spec.envFrom[1] must name exactly one configMapRef or secretRef",
				`spec.runnerPodTemplate.spec.env[0].valueFrom (A) names key "nope" of Secret creds, which has no such key`,
				`spec.runnerPodTemplate.spec.env[1].valueFrom (B) must name exactly one secretKeyRef or configMapKeyRef: strata runs no pod, so fieldRef and resourceFieldRef have nothing to read`,
				`spec.runnerPodTemplate.spec.env[3] sets TF_WORKSPACE, by which strata drives tofu`,
				`spec.runnerPodTemplate.spec.env[4] names variable "A=B", which is not a valid variable name`,
				// What lives in the cluster is waited for, as every input.
				"waiting for input ConfigMap/flux-system/gone (spec.runnerPodTemplate.spec.env[2].valueFrom): it is not in the repository; give it with --inputs or --kubeconfig",
				"waiting for input Secret/flux-system/gone (spec.runnerPodTemplate.spec.envFrom[0]): it is not in the repository; give it with --inputs or --kubeconfig",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			if diff := cmp.Diff(tt.want, b.runnerEnv()); diff != "" {
				t.Errorf("runnerEnv(%s) diff (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.problems, r.messages()); diff != "" {
				t.Errorf("runnerEnv(%s) problems diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
	// Read from a cluster, they are resolved too, for strata controller's
	// in-process runs (a runner Job's request leaves them out).
	b, r := testBuilder(t, "  runnerPodTemplate: {spec: {env: [{name: A, value: b}]}}")
	r.cluster = true
	if diff := cmp.Diff([]environment.EnvVar{{Name: "A", Source: "value", Value: "b"}}, b.runnerEnv()); diff != "" {
		t.Errorf("runnerEnv in a cluster diff (-want +got):\n%s", diff)
	}
	// A variable only a pod can set (fieldRef) or one strata drives tofu
	// with is no problem there: the runner Job's pod sets it as written.
	b, r = testBuilder(t, "  runnerPodTemplate: {spec: {env: [{name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}, {name: TF_LOG, value: DEBUG}, {name: A, value: b}]}}")
	r.cluster = true
	if diff := cmp.Diff([]environment.EnvVar{{Name: "A", Source: "value", Value: "b"}}, b.runnerEnv()); diff != "" {
		t.Errorf("runnerEnv in a cluster, with a fieldRef and TF_LOG, diff (-want +got):\n%s", diff)
	}
	if msgs := r.messages(); len(msgs) != 0 {
		t.Errorf("runnerEnv in a cluster problems = %q, want none", msgs)
	}
}

// FuzzExpandEnv: expansion never panics, leaves a value without "$" as
// it is, and with nothing defined only unescapes "$$".
func FuzzExpandEnv(f *testing.F) {
	for _, s := range []string{"", "plain", "$(A)", "$$(A)", "$(A", "$", "a$b", "$()", "$(A)$(B)", "$$$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		none := func(string) (string, bool) { return "", false }
		got := expandEnv(s, none)
		if !containsDollar(s) && got != s {
			t.Errorf("expandEnv(%q) = %q, want it unchanged", s, got)
		}
		if len(got) > len(s) {
			t.Errorf("expandEnv(%q) = %q with nothing defined, want no longer", s, got)
		}
		all := func(string) (string, bool) { return "x", true }
		_ = expandEnv(s, all)
	})
}

func containsDollar(s string) bool {
	for i := range len(s) {
		if s[i] == '$' {
			return true
		}
	}
	return false
}
