package tofufiles

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExt(t *testing.T) {
	tests := []struct {
		name, want string
		code, json bool
	}{
		{"main.tf", ExtTF, true, false},
		{"main.tf.json", ExtTFJSON, true, true},
		{"main.tofu", ExtTofu, true, false},
		{"main.tofu.json", ExtTofuJSON, true, true},
		{"backend_override.tf", ExtTF, true, false},
		{"main.tfvars", "", false, false},
		{"main.tf.bak", "", false, false},
		{"README.md", "", false, false},
		{".hidden.tf", ExtTF, false, false},
		{"main.tf~", "", false, false},
		{"#main.tf#", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Ext(tt.name); got != tt.want {
				t.Errorf("Ext(%q) = %q, want %q", tt.name, got, tt.want)
			}
			if got := IsCode(tt.name); got != tt.code {
				t.Errorf("IsCode(%q) = %v, want %v", tt.name, got, tt.code)
			}
			if got := IsJSON(tt.name); got != tt.json {
				t.Errorf("IsJSON(%q) = %v, want %v", tt.name, got, tt.json)
			}
		})
	}
}

func TestIsRootCode(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"main.tf", true},
		{"main.tf.tpl", true},
		{"other.tf.tpl", false},
		{"README.md", false},
	}
	for _, tt := range tests {
		if got := IsRootCode(tt.name); got != tt.want {
			t.Errorf("IsRootCode(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestModule(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  []string
	}{
		{"none", []string{"README.md", "x.tfvars"}, nil},
		{"tf only", []string{"b.tf", "a.tf.json", "notes.txt"}, []string{"a.tf.json", "b.tf"}},
		{"tofu only", []string{"main.tofu", "vars.tofu.json"}, []string{"main.tofu", "vars.tofu.json"}},
		{"tofu replaces tf", []string{"main.tf", "main.tofu", "other.tf"}, []string{"main.tofu", "other.tf"}},
		{"tofu.json replaces tf.json", []string{"v.tf.json", "v.tofu.json", "v.tf"}, []string{"v.tf", "v.tofu.json"}},
		{"tofu does not replace tf.json", []string{"v.tf.json", "v.tofu"}, []string{"v.tf.json", "v.tofu"}},
		{"hidden left out", []string{".x.tofu", "y.tofu"}, []string{"y.tofu"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Module(tt.files)); diff != "" {
				t.Errorf("Module(%q) diff (-want +got):\n%s", tt.files, diff)
			}
		})
	}
}
