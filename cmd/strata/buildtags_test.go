package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// buildTags are the build tags of every strata binary, as the Makefile's
// GOTAGS sets them: kustomize without Go plugin support.
const buildTags = "kustomize_disable_go_plugin_support"

// TestBuildTagsDropGoPlugins proves that the build tags keep package
// plugin out of strata: importing it makes the linker keep and export
// every symbol, which doubles strata's resident memory. Without the tags
// kustomize imports it, so a renamed tag shows here.
func TestBuildTagsDropGoPlugins(t *testing.T) {
	tests := []struct {
		name string
		tags string
		want bool
	}{
		{name: "with the build tags", tags: buildTags, want: false},
		{name: "without", tags: "", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := exec.Command("go", "list", "-deps", "-tags", tt.tags, ".").Output()
			if err != nil {
				t.Fatalf("go list -deps -tags %q . = %v", tt.tags, err)
			}
			if got := slices.Contains(strings.Fields(string(out)), "plugin"); got != tt.want {
				t.Errorf("go list -deps -tags %q . lists package plugin = %v, want %v", tt.tags, got, tt.want)
			}
		})
	}
}

// TestNoSOPSInStrata proves that the sops library stays out of strata:
// it links every cloud KMS SDK, and strata decrypts through strata-sops
// instead (package decryption).
func TestNoSOPSInStrata(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", buildTags, ".").Output()
	if err != nil {
		t.Fatalf("go list -deps -tags %q . = %v", buildTags, err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/getsops/") {
			t.Errorf("go list -deps -tags %q . lists %s, want no package of github.com/getsops", buildTags, p)
		}
	}
}
