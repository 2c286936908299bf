package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadDeclared(t *testing.T) {
	tests := []struct {
		name        string
		files       map[string]string
		want        map[string]bool
		wantBackend bool
	}{
		{"none", map[string]string{"main.tf": `resource "terraform_data" "a" {}`}, map[string]bool{}, false},
		{"hcl and json", map[string]string{
			"variables.tf":       "variable \"app_version\" {\n  type = string\n}\nvariable \"region\" {}\n",
			"more.tf.json":       `{"variable": {"size": {"type": "string"}}}`,
			"notes.md":           `variable "ignored" {}`,
			"strata.tfvars.json": `{"x": 1}`,
		}, map[string]bool{"app_version": true, "region": true, "size": true}, false},
		{"tofu and tofu.json", map[string]string{
			"main.tofu":       `variable "region" {}`,
			"more.tofu.json":  `{"variable": {"size": {}}}`,
			"old.tf":          `variable "gone" {}`,
			"old.tofu":        `variable "kept" {}`,
			"other.tf.json":   `{"variable": {"replaced": {}}}`,
			"other.tofu.json": `{"variable": {"replacement": {}}}`,
			".hidden.tofu":    `variable "hidden" {}`,
			"main.tofu~":      `variable "backup" {}`,
		}, map[string]bool{"region": true, "size": true, "kept": true, "replacement": true}, false},
		{"a broken file is left to tofu", map[string]string{"main.tf": "variable \"a\" {}\nvariable {", "ok.tf": `variable "b" {}`}, map[string]bool{"a": true, "b": true}, false},
		{"a backend", map[string]string{"main.tf": "terraform {\n  required_version = \">= 1.6\"\n}\n", "backend.tf": "terraform {\n  backend \"http\" {\n    address = \"https://s/\"\n  }\n}\n"}, map[string]bool{}, true},
		{"a cloud block", map[string]string{"main.tf": "terraform {\n  cloud {\n    organization = \"acme\"\n    workspaces {\n      name = \"dev\"\n    }\n  }\n}\n"}, map[string]bool{}, true},
		{"a backend in JSON", map[string]string{"main.tf.json": `{"terraform": {"backend": {"s3": {"bucket": "b"}}}}`}, map[string]bool{}, true},
		{"a terraform block without one", map[string]string{"main.tf": "terraform {\n  required_providers {}\n}\n"}, map[string]bool{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := readDeclared(dir)
			if err != nil {
				t.Fatalf("readDeclared(%q) = %v", tt.name, err)
			}
			if diff := cmp.Diff(tt.want, got.variables); diff != "" {
				t.Errorf("readDeclared(%q) variables diff (-want +got):\n%s", tt.name, diff)
			}
			if wantCloud := strings.Contains(tt.name, "cloud"); got.cloud != wantCloud {
				t.Errorf("readDeclared(%q) cloud = %v, want %v", tt.name, got.cloud, wantCloud)
			}
			if got.backend != tt.wantBackend {
				t.Errorf("readDeclared(%q) backend = %v, want %v", tt.name, got.backend, tt.wantBackend)
			}
		})
	}
}
