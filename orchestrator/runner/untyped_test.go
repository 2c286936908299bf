package runner

import (
	"testing"

	"github.com/strata-iac/strata/contracts"
)

func TestUntyped(t *testing.T) {
	tests := []struct {
		name string
		doc  contracts.Document
		want bool
	}{
		{"no values", contracts.Document{}, false},
		{"values and their types", contracts.Document{Public: map[string]any{"a": "x"}, Types: map[string]string{"a": `"string"`}}, false},
		{"public values without types", contracts.Document{Public: map[string]any{"a": "x"}}, true},
		{"private values without types", contracts.Document{Private: map[string]any{"a": "x"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := untyped(tt.doc); got != tt.want {
				t.Errorf("untyped(%+v) = %v, want %v", tt.doc, got, tt.want)
			}
		})
	}
}
