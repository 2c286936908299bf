package yamltest

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestDiff(t *testing.T) {
	parse := func(s string) *yaml.Node {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(s), &n); err != nil {
			t.Fatalf("yaml.Unmarshal(%q): %v", s, err)
		}
		return &n
	}
	tests := []struct {
		name, got, want string
		// where is what the difference names, "" when there is none.
		where string
	}{
		{"same", "a: [1, b]\n", "a: [1, b]\n", ""},
		{"value", "a: 1\n", "a: 2\n", "doc[0][1]: got"},
		{"style", "a: '1'\n", "a: \"1\"\n", "doc[0][1]: got"},
		{"tag", "a: 1\n", "a: '1'\n", "doc[0][1]: got"},
		{"line", "a: 1\n", "\na: 1\n", "doc: got"},
		{"children", "a: [1]\n", "a: [1, 2]\n", "doc[0][1]: got 1 children, want 2"},
		{"comment", "a: 1 # one\n", "a: 1\n", "doc[0][1]: got"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Diff("doc", parse(tt.got), parse(tt.want))
			if tt.where == "" && d != "" || tt.where != "" && !strings.HasPrefix(d, tt.where) {
				t.Errorf("Diff(%q, %q) = %q, want it to start %q", tt.got, tt.want, d, tt.where)
			}
		})
	}
	if d := Diff("doc", nil, parse("a: 1\n")); d == "" {
		t.Errorf("Diff(nil, a tree) = %q, want a difference", d)
	}
	if d := Diff("doc", nil, nil); d != "" {
		t.Errorf("Diff(nil, nil) = %q, want none", d)
	}
}
