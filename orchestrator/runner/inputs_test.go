package runner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

// TestToValue: a consumer that receives a whole contract as a variable
// gets the document's fields and values, never the outputs' types, which
// only the output Secrets carry.
func TestToValue(t *testing.T) {
	tests := []struct {
		name string
		doc  contracts.Document
	}{
		{"typed outputs", contracts.Document{
			Installed: true, Version: "1.2.0", Stack: "network",
			Public:  map[string]any{"vpc_id": "vpc-1", "azs": []any{"a", "b"}},
			Private: map[string]any{"token": "t"},
			Types:   map[string]string{"azs": `["list","string"]`},
		}},
		{"untyped document", contracts.Document{Installed: true, Stack: "dns", Public: map[string]any{"zone": "z"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toValue(tt.doc)
			if err != nil {
				t.Fatalf("toValue(%q) = %v", tt.doc.Stack, err)
			}
			m, _ := got.(map[string]any)
			if _, ok := m["types"]; ok {
				t.Errorf("toValue(%q) has a types key: %v", tt.doc.Stack, m)
			}
			if diff := cmp.Diff(tt.doc.Public, m["public"]); diff != "" {
				t.Errorf("toValue(%q).public mismatch (-want +got):\n%s", tt.doc.Stack, diff)
			}
			if m["stack"] != tt.doc.Stack || m["installed"] != tt.doc.Installed {
				t.Errorf("toValue(%q) = stack %v installed %v, want %q %v", tt.doc.Stack, m["stack"], m["installed"], tt.doc.Stack, tt.doc.Installed)
			}
		})
	}
}
