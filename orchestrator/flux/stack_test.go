package flux

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckModuleDir: a stack's spec.path in this repository holds code
// when it has a file tofu reads a module from, of any of its four kinds;
// hidden and backup files are not code.
func TestCheckModuleDir(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  string // the problem's message; "" for none
	}{
		{"tf", []string{"main.tf"}, ""},
		{"tf.json", []string{"main.tf.json"}, ""},
		{"tofu", []string{"main.tofu"}, ""},
		{"tofu.json", []string{"main.tofu.json"}, ""},
		{"no code", []string{"README.md", ".hidden.tofu", "main.tf~", "x.tfvars"}, `spec.path "./stack" holds no .tf, .tf.json, .tofu or .tofu.json files`},
		{"code only in a subdirectory", []string{"modules/m/main.tofu"}, `spec.path "./stack" holds no .tf, .tf.json, .tofu or .tofu.json files`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range append(tt.files, "../other/keep") {
				p := filepath.Join(root, "stack", f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			l := newLoader(context.Background(), root, "e")
			tf := &terraform{}
			tf.Kind, tf.Metadata.Name, tf.File, tf.Spec.Path = kindTerraform, "t", "t.yaml", "./stack"
			l.checkModuleDir(tf, "stack")
			var got string
			if ps := l.sortedProblems(); len(ps) > 0 {
				got = ps[0].Message
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("checkModuleDir(%q) diff (-want +got):\n%s", tt.files, diff)
			}
		})
	}
}
