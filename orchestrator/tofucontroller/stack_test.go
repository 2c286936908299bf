package tofucontroller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestBuild: a Terraform object becomes the stack the Tofu Controller
// would run, with strata's annotations read; what is wrong is a problem.
func TestBuild(t *testing.T) {
	tests := []struct {
		name        string
		annotations map[string]string
		spec        string
		want        environment.Stack
		problems    []string
		unset       []string
	}{
		{
			name: "the spec's fields",
			spec: `  path: ./terraform
  approvePlan: auto
  interval: 10m
  retryInterval: 30s
  workspace: blue
  targets: [aws_s3_bucket.b]
  parallelism: 4
  dependsOn: [{name: network}, {name: account}, {name: network}]
  tfstate: {forceUnlock: auto}
  backendConfig: {customConfiguration: 'backend "local" {}'}
  writeOutputsToSecret: {name: app-outputs, outputs: [url, "id:app_id"]}
  vars: [{name: region, value: eu-west-1}]
  varsFrom: [{kind: ConfigMap, name: cm, varsKeys: [bucket]}]`,
			want: environment.Stack{
				Name: "t", File: "t.yaml", Layer: environment.LayerServices,
				ApprovePlan: "auto", ForceUnlock: environment.ForceUnlockAuto,
				Interval: 10 * time.Minute, RetryInterval: 30 * time.Second,
				Run:             environment.Run{Targets: []string{"aws_s3_bucket.b"}, Parallelism: 4, Workspace: "blue"},
				DependsOn:       []string{"account", "network"},
				BackendConfig:   `backend "local" {}`,
				Produces:        "app-outputs",
				ProducesOutputs: []string{"url", "id:app_id"},
				Vars:            map[string]any{"region": "eu-west-1", "bucket": "states"},
			},
			unset: []string{"ConfigMap/cm spec.varsFrom[0]"},
		},
		{
			name:        "strata's annotations",
			annotations: map[string]string{environment.AnnotationLayer: "network", environment.AnnotationContract: "net", environment.AnnotationReadContracts: "# comment\nconfiguration: (account|network)\n"},
			spec:        "  workspace: default",
			want: environment.Stack{
				Name: "t", File: "t.yaml", Layer: environment.LayerNetwork, Produces: "net",
				ConsumesMatching: []environment.MatchInput{{As: "configuration", Regex: "(account|network)"}},
			},
		},
		{
			name:        "what is wrong",
			annotations: map[string]string{environment.AnnotationLayer: "top", environment.AnnotationReadContracts: "1x: a\nnope\ny: (\n"},
			spec:        "  interval: soon\n  retryInterval: -1s\n  tfstate: {forceUnlock: \"yes\"}\n  writeOutputsToSecret: {name: o, outputs: [\"a:b:c\"]}\n  cloud: {organization: x}",
			want: environment.Stack{
				Name: "t", File: "t.yaml", ForceUnlock: environment.ForceUnlockYes, Produces: "o", ProducesOutputs: []string{"a:b:c"},
			},
			problems: []string{
				`annotation strata.dev/layer is "top", which is not a layer`,
				`annotation strata.dev/read-contracts line "1x: a" names variable "1x", which is not a valid variable name`,
				`annotation strata.dev/read-contracts line "nope" is not "variable: regex"`,
				"annotation strata.dev/read-contracts line \"y: (\" has a regular expression that does not compile: error parsing regexp: missing closing ): `^(?:()$`",
				`spec.cloud needs an organization and a workspace (workspaces.name or workspaces.tags)`,
				`spec.interval is "soon", which is not a positive duration`,
				`spec.retryInterval is "-1s", which is not a positive duration`,
				`spec.tfstate.forceUnlock is "yes" without spec.tfstate.lockIdentifier: strata releases only the lock a person names`,
				`spec.writeOutputsToSecret.outputs: "a:b:c" has more than one colon; write old:new`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			tf := b.tf
			tf.Annotations = tt.annotations
			if err := yaml.Unmarshal([]byte("spec:\n"+tt.spec), &tf.Raw); err != nil {
				t.Fatal(err)
			}
			got, backendSecrets := Build(tf, r)
			if diff := cmp.Diff(tt.want, *got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Build(%s) stack diff (-want +got):\n%s", tt.name, diff)
			}
			if len(backendSecrets) > 0 {
				t.Errorf("Build(%s) backend Secrets = %v, want none", tt.name, backendSecrets)
			}
			if diff := cmp.Diff(tt.problems, r.messages()); diff != "" {
				t.Errorf("Build(%s) problems diff (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.unset, r.unset); diff != "" {
				t.Errorf("Build(%s) Unset calls diff (-want +got):\n%s", tt.name, diff)
			}
			for _, p := range r.problems {
				if p.File != "t.yaml" || p.Object != "Terraform/t" || p.Fix == "" {
					t.Errorf("Build(%s) problem %+v, want one of t.yaml's Terraform/t with a fix", tt.name, p)
				}
			}
		})
	}
}
