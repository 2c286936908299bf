package diag

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInCluster(t *testing.T) {
	tests := []struct {
		name string
		in   Problem
		want Problem
	}{
		{
			name: "missing input",
			in:   MissingInput("ns/Terraform/app", "Terraform/app", "spec.varsFrom[0]", "Secret", "ns", "app-vars"),
			want: Problem{
				File: "ns/Terraform/app", Object: "Terraform/app",
				Message: "input Secret/ns/app-vars (spec.varsFrom[0]): Secret app-vars not found in namespace ns",
				Fix:     "create Secret app-vars in namespace ns, or mark the entry optional: true",
				Code:    CodeInputMissing, Input: &Input{Kind: "Secret", Namespace: "ns", Name: "app-vars"},
			},
		},
		{
			name: "another problem",
			in:   Problem{File: "f", Message: "it is not in the repository; give it with --inputs or --kubeconfig"},
			want: Problem{File: "f", Message: "it is not in the repository; give it with --inputs or --kubeconfig"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.in.InCluster()); diff != "" {
				t.Errorf("InCluster(%q) mismatch (-want +got):\n%s", tt.in.Message, diff)
			}
		})
	}
}
