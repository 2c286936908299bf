package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/change"
)

// A review longer than a comment is cut, says where the rest is, and the
// whole of it is written beside the comment file.
func TestWriteReviewCut(t *testing.T) {
	var stacks []change.Stack
	for i := range 1500 {
		stacks = append(stacks, change.Stack{Stack: fmt.Sprintf("stack-%04d", i), Cause: change.CauseCode, Why: "its code changed at version 0.1.0"})
	}
	d := &change.Report{Base: "origin/main", Commit: strings.Repeat("a", 40)}
	envs := []change.EnvPlan{{Env: change.Env{Dir: "environments/acme/dev", Client: "acme", Name: "dev", Stacks: stacks}}}
	tests := []struct {
		name, file, full string
		cut              bool
		envs             []change.EnvPlan
	}{
		{"cut", "review.md", "review.full.md", true, envs},
		{"fits", "small.md", "small.full.md", false, []change.EnvPlan{{Env: change.Env{Dir: "environments/acme/dev", Client: "acme", Name: "dev", Stacks: stacks[:3]}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var out, errOut bytes.Buffer
			g := &globals{stdout: &out, stderr: &errOut, output: "markdown"}
			f := &baseFlags{commentFile: filepath.Join(dir, tt.file)}
			if err := f.writeReview(g, d, tt.envs); err != nil {
				t.Fatal(err)
			}
			comment, err := os.ReadFile(f.commentFile)
			if err != nil {
				t.Fatal(err)
			}
			full, err := os.ReadFile(filepath.Join(dir, tt.full))
			switch {
			case !tt.cut && !os.IsNotExist(err):
				t.Errorf("writeReview(%q) wrote %s for a review that fits: %v", tt.name, tt.full, err)
			case tt.cut && err != nil:
				t.Fatalf("writeReview(%q) wrote no %s: %v", tt.name, tt.full, err)
			case tt.cut:
				if len(comment) > 65536 || len(full) <= 65536 {
					t.Errorf("writeReview(%q) = comment %d bytes, whole %d; want at most 65536 and more", tt.name, len(comment), len(full))
				}
				if !strings.Contains(string(comment), "the whole review is in `"+tt.full+"`") {
					t.Errorf("writeReview(%q) comment does not say where the rest is", tt.name)
				}
				if !strings.Contains(string(full), "### acme/dev: stack-1499 (code)") {
					t.Errorf("writeReview(%q) whole review lacks the last stack", tt.name)
				}
				if !strings.Contains(errOut.String(), "the review is longer than a comment") {
					t.Errorf("writeReview(%q) stderr = %q, want it to say the review was cut", tt.name, errOut.String())
				}
			}
			if out.Len() != 0 {
				t.Errorf("writeReview(%q) wrote to stdout with --comment-file: %q", tt.name, out.String()[:min(out.Len(), 200)])
			}
		})
	}
}
