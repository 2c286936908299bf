package tcdata

import "testing"

// TestRenderTemplate: the Tofu Controller's ${{ }} delimiters, over a
// reply or the outputs; {{ }} is text.
func TestRenderTemplate(t *testing.T) {
	tests := []struct {
		text string
		data any
		want string
	}{
		{"${{ .passed }}", map[string]any{"passed": true}, "true"},
		{"Violation: ${{ (index .violations 0).message }}", map[string]any{"violations": []any{map[string]any{"message": "too big"}}}, "Violation: too big"},
		{"${{.host}}:${{.port}}", map[string]string{"host": "h", "port": "80"}, "h:80"},
		{"{{.foo}}:81", map[string]string{"foo": "x"}, "{{.foo}}:81"},
	}
	for _, tt := range tests {
		if got, err := RenderTemplate("t", tt.text, tt.data); err != nil || got != tt.want {
			t.Errorf("RenderTemplate(%q) = %q, %v, want %q", tt.text, got, err, tt.want)
		}
	}
	if _, err := RenderTemplate("t", "${{ .x", nil); err == nil {
		t.Errorf("RenderTemplate(%q) = nil error, want one", "${{ .x")
	}
}
