package k8stest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
// with the binaries of StrataBinaries and $STRATA_TOFU), imports it into
// the node's containerd, and returns its tag; once per test binary. Pods
// run it with imagePullPolicy Never.
func (c *Cluster) StrataImage(t testing.TB) string {
	t.Helper()
	bins := StrataBinaries(t)
	image.once.Do(func() { image.tag, image.err = c.buildImage(bins) })
	if image.err != nil {
		t.Fatal(image.err)
	}
	return image.tag
}

func (c *Cluster) buildImage(bins Binaries) (string, error) {
	tofu := os.Getenv("STRATA_TOFU")
	if tofu == "" {
		return "", fmt.Errorf("STRATA_TOFU is not set: make test-k8s sets it to bin/tofu")
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "strata-image-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	tag := fmt.Sprintf("strata.local/strata:test-%d", time.Now().UnixNano())
	tarball := filepath.Join(dir, "image.tar")
	img := exec.Command("go", "run", "./cmd/strata-image", "--strata", bins.Strata, "--strata-sops", bins.Sops, "--strata-kube", bins.Kube, "--tofu", tofu, "--tag", tag, "--out", tarball)
	img.Dir = root
	if out, err := img.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build strata's image: %v\n%s", err, out)
	}
	return tag, c.importImage(tarball)
}
