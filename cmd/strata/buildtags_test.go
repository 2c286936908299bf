package main

import (
	"os"
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

// TestBuildsWithoutCgo proves that no package strata imports needs cgo,
// so `make build`, the bench and the image build it with CGO_ENABLED=0: a
// static binary that maps no libc. With cgo on, os/user and net would
// link it through runtime/cgo.
func TestBuildsWithoutCgo(t *testing.T) {
	tests := []struct {
		cgo  string
		want bool
	}{
		{cgo: "0", want: false},
		{cgo: "1", want: true},
	}
	for _, tt := range tests {
		t.Run("CGO_ENABLED="+tt.cgo, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", "-tags", buildTags, ".")
			cmd.Env = append(os.Environ(), "CGO_ENABLED="+tt.cgo)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("CGO_ENABLED=%s go list -deps -tags %q . = %v", tt.cgo, buildTags, err)
			}
			if got := slices.Contains(strings.Fields(string(out)), "runtime/cgo"); got != tt.want {
				t.Errorf("CGO_ENABLED=%s go list -deps lists runtime/cgo = %v, want %v", tt.cgo, got, tt.want)
			}
		})
	}
}

// TestKubeOnlyInStrataKube proves that strata links none of what only a
// cluster needs (client-go's clientset and informers, leader election,
// the cluster's records, the controller and its runner Jobs), which
// strata-kube, built with the tag kube, holds.
func TestKubeOnlyInStrataKube(t *testing.T) {
	kubeOnly := []string{
		"k8s.io/client-go/kubernetes",
		"k8s.io/client-go/informers",
		"k8s.io/client-go/tools/leaderelection",
		"github.com/strata-iac/strata/orchestrator/kuberecords",
		"github.com/strata-iac/strata/orchestrator/controller",
		"github.com/strata-iac/strata/orchestrator/jobs",
		"github.com/strata-iac/strata/orchestrator/leader",
	}
	tests := []struct {
		name string
		tags string
		want bool
	}{
		{name: "strata", tags: buildTags, want: false},
		{name: "strata-kube", tags: buildTags + " kube", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := exec.Command("go", "list", "-deps", "-tags", tt.tags, ".").Output()
			if err != nil {
				t.Fatalf("go list -deps -tags %q . = %v", tt.tags, err)
			}
			deps := strings.Fields(string(out))
			for _, p := range kubeOnly {
				if got := slices.Contains(deps, p); got != tt.want {
					t.Errorf("go list -deps -tags %q . lists %s = %v, want %v", tt.tags, p, got, tt.want)
				}
			}
		})
	}
}
