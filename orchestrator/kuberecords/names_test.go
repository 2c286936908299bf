package kuberecords

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/validation"
)

func TestLabels(t *testing.T) {
	long := strings.Repeat("s", 70)
	tests := []struct {
		name               string
		client, env, stack string
		wantNames          []string
	}{
		{"valid names", "acme", "dev", "network", []string{labelClient, labelEnv, labelStack}},
		{"stack too long for a label", "acme", "dev", long, []string{labelClient, labelEnv}},
		{"dotted stack", "acme", "dev", "net.work", []string{labelClient, labelEnv, labelStack}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := labels(recordRun, tt.client, tt.env, tt.stack)
			var names []string
			for _, k := range []string{labelClient, labelEnv, labelStack} {
				if _, ok := l[k]; ok {
					names = append(names, k)
				}
			}
			if !cmp.Equal(names, tt.wantNames) {
				t.Errorf("labels(%q) names = %v, want %v", tt.stack, names, tt.wantNames)
			}
			for k, v := range l {
				if errs := validation.IsValidLabelValue(v); len(errs) > 0 {
					t.Errorf("labels(%q)[%s] = %q, not a label value: %v", tt.stack, k, v, errs)
				}
			}
			for _, n := range []string{runName(tt.client, tt.env, tt.stack, 12345), planName(tt.client, tt.env, tt.stack, "plan-0123456789abcdef")} {
				if errs := validation.IsDNS1123Subdomain(n); len(errs) > 0 {
					t.Errorf("object name %q is not valid: %v", n, errs)
				}
			}
		})
	}
	if a, b := stackHash("a", "bc", "d"), stackHash("ab", "c", "d"); a == b {
		t.Errorf("stackHash(a, bc, d) = stackHash(ab, c, d) = %s, want them apart", a)
	}
}
