package tofucontroller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestHealthChecks: spec.healthChecks as the Tofu Controller reads them,
// its 20 s timeout by default; what cannot run is a problem.
func TestHealthChecks(t *testing.T) {
	tests := []struct {
		name, spec string
		want       []environment.HealthCheck
		problems   []string
	}{
		{
			name: "tcp and http, templated",
			spec: "  healthChecks:\n  - {name: tcpTest, type: tcp, address: '${{.foo}}:${{.port}}'}\n  - {name: httpTest, type: http, url: 'http://h${{.bar}}', timeout: 5s}",
			want: []environment.HealthCheck{
				{Name: "tcpTest", Type: "tcp", Address: "${{.foo}}:${{.port}}", Timeout: 20 * time.Second},
				{Name: "httpTest", Type: "http", URL: "http://h${{.bar}}", Timeout: 5 * time.Second},
			},
		},
		{
			name: "what cannot run",
			spec: "  healthChecks:\n  - {name: a, type: udp, address: 'x:1'}\n  - {name: b, type: tcp}\n  - {name: c, type: http}\n  - {type: tcp, address: 'x:1'}\n  - {name: e, type: http, url: 'http://${{.x'}\n  - {name: f, type: tcp, address: 'x:1', timeout: soon}",
			problems: []string{
				`spec.healthChecks[0] has type "udp"; the Tofu Controller checks tcp and http`,
				"spec.healthChecks[1] is a tcp check without an address",
				"spec.healthChecks[2] is an http check without a url",
				"spec.healthChecks[3] has no name",
				`spec.healthChecks[4] url is not a template: template: e:1: unclosed action`,
				`spec.healthChecks[5].timeout is "soon", which is not a positive duration`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			if diff := cmp.Diff(tt.want, b.healthChecks()); diff != "" {
				t.Errorf("healthChecks(%s) diff (-want +got):\n%s", tt.spec, diff)
			}
			if diff := cmp.Diff(tt.problems, r.messages()); diff != "" {
				t.Errorf("healthChecks(%s) problems diff (-want +got):\n%s", tt.spec, diff)
			}
		})
	}
}
