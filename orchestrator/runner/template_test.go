package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderMainTemplate(t *testing.T) {
	tests := []struct {
		name, tpl, vars string
		want, wantErr   string
	}{
		{"no template", "", `{}`, "", ""},
		{"values and sprig", `output "x" { value = "{{ .Values.name | upper }}-{{ .region }}" }`, `{"values":{"name":"app"},"region":"eu"}`, `output "x" { value = "APP-eu" }`, ""},
		{"conditional default", `{{ if $.Values.size }}size = {{ .Values.size }}{{ else }}size = 1{{ end }}`, `{"values":{}}`, "size = 1", ""},
		{"broken template", `{{ .Values.name `, `{"values":{}}`, "", "render main.tf.tpl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.tpl != "" {
				if err := os.WriteFile(filepath.Join(dir, mainTemplate), []byte(tt.tpl), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := renderMainTemplate(dir, []byte(tt.vars))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("renderMainTemplate(%q) = %v, want an error containing %q", tt.tpl, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("renderMainTemplate(%q) = %v", tt.tpl, err)
			}
			got, err := os.ReadFile(filepath.Join(dir, "main.tf"))
			if tt.tpl == "" {
				if err == nil {
					t.Errorf("renderMainTemplate without a template wrote main.tf: %q", got)
				}
				return
			}
			if string(got) != tt.want {
				t.Errorf("renderMainTemplate(%q) main.tf = %q, want %q", tt.tpl, got, tt.want)
			}
		})
	}
}
