package jobs

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

func TestName(t *testing.T) {
	long := strings.Repeat("a", 60) + ".b"
	tests := []struct {
		object, run string
		prefix      string
	}{
		{"network", "apply@sha256:1", "network-tf-runner-"},
		{"network", "apply@sha256:2", "network-tf-runner-"},
		{"infra.network", "plan", "infra-network-tf-runner-"},
		{long, "apply", strings.Repeat("a", 40) + "-tf-runner-"},
		{strings.Repeat("a", 39) + ".b", "apply", strings.Repeat("a", 39) + "-tf-runner-"},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.object+"/"+tt.run, func(t *testing.T) {
			got := Name(tt.object, tt.run)
			if !strings.HasPrefix(got, tt.prefix) {
				t.Errorf("Name(%q, %q) = %q, want prefix %q", tt.object, tt.run, got, tt.prefix)
			}
			if errs := validation.IsDNS1123Label(got); len(errs) > 0 {
				t.Errorf("Name(%q, %q) = %q, not a label value a Job's pods can carry: %v", tt.object, tt.run, got, errs)
			}
			if again := Name(tt.object, tt.run); again != got {
				t.Errorf("Name(%q, %q) = %q, then %q, want the same", tt.object, tt.run, got, again)
			}
			if other, ok := seen[got]; ok {
				t.Errorf("Name(%q, %q) = %q, the same as for %s", tt.object, tt.run, got, other)
			}
			seen[got] = tt.object + "/" + tt.run
		})
	}
}
