package contracts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDeepCopy(t *testing.T) {
	tests := []struct {
		name string
		in   any
	}{
		{"string", "s"},
		{"nil", nil},
		{"list", []any{"a", map[string]any{"b": []any{1.0}}}},
		{"object", map[string]any{"a": map[string]any{"b": "c"}, "l": []any{true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := deepCopy(tt.in)
			if diff := cmp.Diff(tt.in, got); diff != "" {
				t.Errorf("deepCopy(%v) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
	orig := map[string]any{"a": map[string]any{"b": "c"}}
	cp := deepCopy(orig).(map[string]any)
	cp["a"].(map[string]any)["b"] = "changed"
	if orig["a"].(map[string]any)["b"] != "c" {
		t.Errorf("deepCopy(%v) shares a nested map with the original", orig)
	}
	if got := copyMap(nil); got == nil || len(got) != 0 {
		t.Errorf("copyMap(nil) = %#v, want an empty map", got)
	}
}
