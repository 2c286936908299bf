package celexpr

import (
	"context"
	"strings"
	"testing"
)

// TestCompile holds Compile to what Flux's controllers accept and refuse.
func TestCompile(t *testing.T) {
	for _, tc := range []struct {
		expr string
		vars []string
		want string // a part of the error, "" when it compiles
	}{
		{"dep.status.conditions.filter(c, c.type == 'Ready').all(c, c.status == 'True')", []string{"self", "dep"}, ""},
		{"self.metadata.name == dep.metadata.name", []string{"self", "dep"}, ""},
		{"self.status.phase == 'Running'", []string{"self"}, ""},
		{"has(self.status) && self.status.observedGeneration >= self.metadata.generation", []string{"self"}, ""},
		{"dep.status.conditions.filter(c, c.type == 'Ready'", []string{"self", "dep"}, "failed to parse the CEL expression"},
		{"unknown.status == 'x'", []string{"self"}, "undeclared reference to 'unknown'"},
		{"'text'", []string{"self"}, "output type mismatch: expected bool, got string"},
		{"self.data.x.upperAscii() == 'A'", []string{"self"}, ""},
		{"self.status.ready", []string{"self"}, "expected bool, got dyn"},
	} {
		err := Compile(tc.expr, tc.vars...)
		if tc.want == "" {
			if err != nil {
				t.Errorf("Compile(%q) = %v, want nil", tc.expr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%q) = %v, want an error with %q", tc.expr, err, tc.want)
		}
	}
}

// TestParse holds Parse to what Flux accepts of a health check
// expression: any expression that parses, whatever it names.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want string // a part of the error, "" when it parses
	}{
		{"status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')", ""},
		{"true", ""},
		{"unknown.field == 1", ""},
		{"foo.", "failed to parse the CEL expression 'foo.': ERROR: <input>:1:5: Syntax error: no viable alternative at input '.'"},
	} {
		err := Parse(tc.expr)
		if tc.want == "" {
			if err != nil {
				t.Errorf("Parse(%q) = %v, want nil", tc.expr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", tc.expr, err, tc.want)
		}
	}
}

// TestEval evaluates readyExprs over objects: true, false, and an error
// for what an object does not have.
func TestEval(t *testing.T) {
	self := map[string]any{"metadata": map[string]any{"annotations": map[string]any{"app/version": "v1.2.4"}}}
	dep := map[string]any{"metadata": map[string]any{"annotations": map[string]any{"app/version": "v1.2.3"}}}
	for _, tc := range []struct {
		expr    string
		want    bool
		wantErr string
	}{
		{"self.metadata.annotations['app/version'] == dep.metadata.annotations['app/version']", false, ""},
		{"dep.metadata.annotations['app/version'].startsWith('v1.2')", true, ""},
		{"dep.status.conditions.all(c, c.status == 'True')", false, "no such key: status"},
	} {
		got, err := Eval(context.Background(), tc.expr, map[string]any{"self": self, "dep": dep})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Eval(%q) = %v, %v, want an error with %q", tc.expr, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Eval(%q) = %v, %v, want %v", tc.expr, got, err, tc.want)
		}
	}
}
