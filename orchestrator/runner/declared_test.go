package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDeclaredVariables(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  map[string]bool
	}{
		{"none", map[string]string{"main.tf": `resource "terraform_data" "a" {}`}, map[string]bool{}},
		{"hcl and json", map[string]string{
			"variables.tf":       "variable \"app_version\" {\n  type = string\n}\nvariable \"region\" {}\n",
			"more.tf.json":       `{"variable": {"size": {"type": "string"}}}`,
			"notes.md":           `variable "ignored" {}`,
			"strata.tfvars.json": `{"x": 1}`,
		}, map[string]bool{"app_version": true, "region": true, "size": true}},
		{"tofu and tofu.json", map[string]string{
			"main.tofu":       `variable "region" {}`,
			"more.tofu.json":  `{"variable": {"size": {}}}`,
			"old.tf":          `variable "gone" {}`,
			"old.tofu":        `variable "kept" {}`,
			"other.tf.json":   `{"variable": {"replaced": {}}}`,
			"other.tofu.json": `{"variable": {"replacement": {}}}`,
			".hidden.tofu":    `variable "hidden" {}`,
			"main.tofu~":      `variable "backup" {}`,
		}, map[string]bool{"region": true, "size": true, "kept": true, "replacement": true}},
		{"a broken file is left to tofu", map[string]string{"main.tf": "variable \"a\" {}\nvariable {", "ok.tf": `variable "b" {}`}, map[string]bool{"a": true, "b": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := declaredVariables(dir)
			if err != nil {
				t.Fatalf("declaredVariables(%q) = %v", tt.name, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("declaredVariables(%q) diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
