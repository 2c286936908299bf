package main

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// TestBuild writes an image tarball and reads it back: the files, their
// owners and modes, and a non-root user.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"strata": "strata binary", "strata-sops": "strata-sops binary", "strata-kube": "strata-kube binary", "tofu": "tofu binary", "ca.pem": "-----BEGIN CERTIFICATE-----\n"}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "image.tar")
	args := []string{"--strata", filepath.Join(dir, "strata"), "--strata-sops", filepath.Join(dir, "strata-sops"), "--strata-kube", filepath.Join(dir, "strata-kube"), "--tofu", filepath.Join(dir, "tofu"),
		"--ca", filepath.Join(dir, "ca.pem"), "--tag", "strata.local/strata:test", "--out", out}
	if err := run(args, io.Discard); err != nil {
		t.Fatalf("run(%q) = %v, want nil", args, err)
	}
	img, err := tarball.ImageFromPath(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cf.Config.User, "65532:65532"; got != want {
		t.Errorf("Config.User = %q, want %q", got, want)
	}
	if diff := cmp.Diff([]string{"/usr/local/bin/strata"}, cf.Config.Entrypoint); diff != "" {
		t.Errorf("Config.Entrypoint (-want +got):\n%s", diff)
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("Layers() = %d, %v, want 1 layer", len(layers), err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got := map[string]string{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, _ := io.ReadAll(tr)
		got[h.Name] = string(b)
	}
	want := map[string]string{
		"usr/local/bin/strata":              "strata binary",
		"usr/local/bin/strata-sops":         "strata-sops binary",
		"usr/local/bin/strata-kube":         "strata-kube binary",
		"usr/local/bin/tofu":                "tofu binary",
		"etc/ssl/certs/ca-certificates.crt": "-----BEGIN CERTIFICATE-----\n",
		"etc/passwd":                        "root:x:0:0:root:/root:/sbin/nologin\nstrata:x:65532:65532:strata:/home/strata:/sbin/nologin\n",
		"etc/group":                         "root:x:0:\nstrata:x:65532:\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("image files (-want +got):\n%s", diff)
	}
}

// TestBuildReproducible builds twice from the same inputs and gets the same
// digest.
func TestBuildReproducible(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"strata", "strata-sops", "strata-kube", "tofu", "ca.pem"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := spec{Strata: filepath.Join(dir, "strata"), StrataSOPS: filepath.Join(dir, "strata-sops"), StrataKube: filepath.Join(dir, "strata-kube"), Tofu: filepath.Join(dir, "tofu"), CA: filepath.Join(dir, "ca.pem")}
	var digests []string
	for range 2 {
		img, err := build(s)
		if err != nil {
			t.Fatal(err)
		}
		d, err := img.Digest()
		if err != nil {
			t.Fatal(err)
		}
		digests = append(digests, d.String())
	}
	if digests[0] != digests[1] {
		t.Errorf("build(%v) digests = %v, want the same twice", s, digests)
	}
}

// TestRunUsage refuses a call that names no binaries or no destination.
func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--strata", "a", "--tofu", "b"}, {"--strata", "a", "--tofu", "b", "--out", "c"}} {
		if err := run(args, io.Discard); err == nil {
			t.Errorf("run(%q) = nil, want a usage error", args)
		}
	}
}
