package tofucontroller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestWebhooks: spec.webhooks as the Tofu Controller reads them: the
// enabled post-planning ones, in order, SpecAndPlan by default, with the
// object without its status for their payloads; what cannot run is a
// problem.
func TestWebhooks(t *testing.T) {
	tests := []struct {
		name, spec string
		want       []environment.Webhook
		object     string
		problems   []string
	}{
		{
			name: "enabled ones, in order",
			spec: `  webhooks:
  - {stage: post-planning, url: "http://h/pass", testExpression: "${{ .passed }}", errorMessageTemplate: "V: ${{ (index .violations 0).message }}"}
  - {stage: post-planning, enabled: false, url: some-invalid-url}
  - {url: "https://h/plan", payloadType: PlanOnly, testExpression: "${{ .ok }}"}`,
			want: []environment.Webhook{
				{URL: "http://h/pass", PayloadType: "SpecAndPlan", TestExpression: "${{ .passed }}", ErrorMessageTemplate: "V: ${{ (index .violations 0).message }}"},
				{URL: "https://h/plan", PayloadType: "PlanOnly", TestExpression: "${{ .ok }}"},
			},
			object: `{"kind":"Terraform","spec":{"path":"./x"}}`,
		},
		{
			name: "what cannot run",
			spec: `  webhooks:
  - {stage: pre-apply, url: "http://h/a"}
  - {url: "ftp://h/a"}
  - {url: "http://h/a", payloadType: All}
  - {url: "http://h/a", testExpression: "${{ .passed"}`,
			problems: []string{
				`spec.webhooks[0] has stage "pre-apply"; the Tofu Controller calls webhooks at post-planning only`,
				`spec.webhooks[1] has url "ftp://h/a", which is not an http or https URL`,
				`spec.webhooks[2] has payloadType "All"`,
				`spec.webhooks[3] testExpression is not a template: template: testExpression:1: unclosed action`,
			},
			want:   []environment.Webhook{{URL: "http://h/a", PayloadType: "SpecAndPlan", TestExpression: "${{ .passed"}},
			object: `{"kind":"Terraform","spec":{"path":"./x"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			b.tf.Raw = map[string]any{"kind": "Terraform", "spec": map[string]any{"path": "./x"}, "status": map[string]any{"x": 1}}
			got, obj := b.webhooks()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("webhooks(%s) diff (-want +got):\n%s", tt.name, diff)
			}
			if string(obj) != tt.object {
				t.Errorf("webhooks(%s) object = %s, want %s", tt.name, obj, tt.object)
			}
			if diff := cmp.Diff(tt.problems, r.messages()); diff != "" {
				t.Errorf("webhooks(%s) problems diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
