package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/source"
)

// TestVarFiles resolves spec.tfVarsFiles against the source's root, as the
// Tofu Controller does, and refuses one that is missing, a directory or
// outside the source.
func TestVarFiles(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "stack", "variables"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "stack", "variables", "test.tfvars"), []byte(`text = "x"`), 0o600); err != nil {
		t.Fatal(err)
	}
	a := source.Artifact{Root: root, Dir: filepath.Join(root, "stack")}
	tests := []struct {
		name    string
		files   []string
		want    []string
		wantErr string
	}{
		{"none", nil, []string{}, ""},
		{"relative to the root", []string{"./stack/variables/test.tfvars"}, []string{filepath.Join(root, "stack", "variables", "test.tfvars")}, ""},
		{"missing", []string{"./stack/variables/test.tfvars", "./does-not-exists.tfvars"}, nil, "spec.tfVarsFiles[1] ./does-not-exists.tfvars: tfvars file's path does not exist: " + filepath.Join(root, "does-not-exists.tfvars")},
		{"a directory", []string{"stack"}, nil, "tfvars file's path is a directory"},
		{"outside the source stays inside", []string{"../../etc/passwd"}, nil, "tfvars file's path does not exist: " + filepath.Join(root, "etc", "passwd")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := varFiles(a, tt.files)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("varFiles(%q) = %v, want an error containing %q", tt.files, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("varFiles(%q) = %v", tt.files, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("varFiles(%q) mismatch (-want +got):\n%s", tt.files, diff)
			}
		})
	}
}
