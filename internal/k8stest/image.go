package k8stest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var image struct {
	once sync.Once
	tag  string
	err  error
}

// StrataImage builds strata's image from this checkout (cmd/strata-image,
// with strata-sops, strata-kube and $STRATA_TOFU), imports it into the node's containerd, and returns
// its tag; once per test binary. Pods run it with imagePullPolicy Never.
func (c *Cluster) StrataImage(t testing.TB) string {
	t.Helper()
	image.once.Do(func() { image.tag, image.err = c.buildImage() })
	if image.err != nil {
		t.Fatal(image.err)
	}
	return image.tag
}

func (c *Cluster) buildImage() (string, error) {
	tofu := os.Getenv("STRATA_TOFU")
	if tofu == "" {
		return "", fmt.Errorf("STRATA_TOFU is not set: make test-k8s sets it to bin/tofu")
	}
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	dir, err := os.MkdirTemp("", "strata-image-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	strata := filepath.Join(dir, "strata")
	sops := filepath.Join(dir, "strata-sops")
	kube := filepath.Join(dir, "strata-kube")
	// The build tags of `make image` (the Makefile's GOTAGS; strata-kube
	// is strata with the tag kube).
	for _, b := range []struct{ bin, pkg, tags string }{
		{strata, "./cmd/strata", "kustomize_disable_go_plugin_support"},
		{sops, "./cmd/strata-sops", "kustomize_disable_go_plugin_support"},
		{kube, "./cmd/strata", "kustomize_disable_go_plugin_support kube"},
	} {
		bin, pkg := b.bin, b.pkg
		build := exec.Command("go", "build", "-trimpath", "-tags", b.tags, "-o", bin, pkg)
		build.Dir = root
		build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
		if out, err := build.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	tag := fmt.Sprintf("strata.local/strata:test-%d", time.Now().UnixNano())
	tarball := filepath.Join(dir, "image.tar")
	img := exec.Command("go", "run", "./cmd/strata-image", "--strata", strata, "--strata-sops", sops, "--strata-kube", kube, "--tofu", tofu, "--tag", tag, "--out", tarball)
	img.Dir = root
	if out, err := img.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build strata's image: %v\n%s", err, out)
	}
	imp := exec.Command("ctr", "-a", filepath.Join(c.Dir, "run", "containerd.sock"), "-n", "k8s.io", "images", "import", tarball)
	if out, err := imp.CombinedOutput(); err != nil {
		return "", fmt.Errorf("ctr images import %s: %v\n%s", tarball, err, out)
	}
	return tag, nil
}
