package tofu

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePlan(t *testing.T) {
	tests := []struct {
		name                 string
		json                 string
		wantChanged, wantOut []string
	}{
		{"outputs created", `{"format_version":"1.2","planned_values":{"outputs":{"b":{"sensitive":false},"a":{"sensitive":true}}},"output_changes":{"a":{"actions":["create"]},"b":{"actions":["create"]}}}`, []string{"a", "b"}, []string{"a", "b"}},
		{"one output kept, one changed", `{"format_version":"1.2","planned_values":{"outputs":{"kept":{},"moved":{}}},"output_changes":{"kept":{"actions":["no-op"]},"moved":{"actions":["update"]}}}`, []string{"moved"}, []string{"kept", "moved"}},
		{"no planned values", `{"format_version":"1.2","output_changes":{"gone":{"actions":["delete"]}}}`, []string{"gone"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePlan([]byte(tt.json))
			if err != nil {
				t.Fatalf("ParsePlan(%q) = %v", tt.json, err)
			}
			if diff := cmp.Diff(tt.wantChanged, p.OutputChanges); diff != "" {
				t.Errorf("ParsePlan(%q).OutputChanges mismatch (-want +got):\n%s", tt.json, diff)
			}
			if diff := cmp.Diff(tt.wantOut, p.Outputs); diff != "" {
				t.Errorf("ParsePlan(%q).Outputs mismatch (-want +got):\n%s", tt.json, diff)
			}
		})
	}
}
