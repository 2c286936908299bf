package k8stest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Binaries are the three programs of strata's image, as make build builds
// them: static (no cgo), with the Makefile's build tags.
type Binaries struct {
	Strata, Sops, Kube string
}

var binaries struct {
	once sync.Once
	bins Binaries
	err  error
}

// The build tags of make build (the Makefile's GOTAGS); strata-kube is
// strata with the tag kube.
const goTags = "kustomize_disable_go_plugin_support"

// StrataBinaries returns strata, strata-sops and strata-kube for the
// cluster tests, once per test binary. make test-k8s builds them first
// (make build) and names them in $STRATA_BIN, $STRATA_SOPS and
// $STRATA_KUBE; they are taken as they are when all three are set and
// this machine is the image's platform (linux/amd64). Otherwise they are
// built here with make build's flags, so that the packages make build
// compiled are linked, not compiled again. Building them once per test
// package, with flags of their own, had the cluster tests compile
// strata's 900 packages four times over on two CPUs.
func StrataBinaries(t testing.TB) Binaries {
	t.Helper()
	binaries.once.Do(func() { binaries.bins, binaries.err = findBinaries() })
	if binaries.err != nil {
		t.Fatal(binaries.err)
	}
	return binaries.bins
}

func findBinaries() (Binaries, error) {
	b := Binaries{Strata: os.Getenv("STRATA_BIN"), Sops: os.Getenv("STRATA_SOPS"), Kube: os.Getenv("STRATA_KUBE")}
	if b.Strata != "" && b.Sops != "" && b.Kube != "" && runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		for _, p := range []string{b.Strata, b.Sops, b.Kube} {
			if _, err := os.Stat(p); err != nil {
				return Binaries{}, fmt.Errorf("strata's binaries: %w (make build builds them)", err)
			}
		}
		return b, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return Binaries{}, err
	}
	dir, err := os.MkdirTemp("", "strata-binaries-")
	if err != nil {
		return Binaries{}, err
	}
	b = Binaries{Strata: filepath.Join(dir, "strata"), Sops: filepath.Join(dir, "strata-sops"), Kube: filepath.Join(dir, "strata-kube")}
	for _, c := range []struct{ bin, pkg, tags string }{
		{b.Strata, "./cmd/strata", goTags},
		{b.Sops, "./cmd/strata-sops", goTags},
		{b.Kube, "./cmd/strata", goTags + " kube"},
	} {
		build := exec.Command("go", "build", "-tags", c.tags, "-o", c.bin, c.pkg)
		build.Dir = root
		build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
		if out, err := build.CombinedOutput(); err != nil {
			return Binaries{}, fmt.Errorf("go build %s: %v\n%s", c.pkg, err, out)
		}
	}
	return b, nil
}

// moduleRoot is the directory of this checkout's go.mod, where the tests
// build strata and its image from.
func moduleRoot() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	return filepath.Dir(strings.TrimSpace(string(gomod))), nil
}
