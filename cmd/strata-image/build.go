package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The user strata runs as inside the image: not root, and with no shell.
const (
	userID   = 65532
	userName = "strata"
	homeDir  = "/home/strata"
)

// Paths inside the image.
const (
	strataPath = "/usr/local/bin/strata"
	// sopsPath is beside strata, where strata looks for its SOPS helper.
	sopsPath = "/usr/local/bin/strata-sops"
	// kubePath is beside strata, where strata looks for strata-kube.
	kubePath = "/usr/local/bin/strata-kube"
	tofuPath = "/usr/local/bin/tofu"
	caPath   = "/etc/ssl/certs/ca-certificates.crt"
)

// spec is what goes into the image.
type spec struct {
	// Strata, StrataSOPS (strata-sops), StrataKube (strata-kube) and Tofu
	// are the binaries
	// (static, linux/amd64).
	Strata, StrataSOPS, StrataKube, Tofu string
	// CA is a PEM bundle of certificate authorities.
	CA string
}

// build returns the image: one layer on an empty base, run as a non-root
// user, with strata as its entrypoint.
func build(s spec) (v1.Image, error) {
	layer, err := filesLayer(s)
	if err != nil {
		return nil, err
	}
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layer)
	if err != nil {
		return nil, fmt.Errorf("build image: %w", err)
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("build image: %w", err)
	}
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS = "amd64", "linux"
	cf.Created = v1.Time{Time: time.Unix(0, 0).UTC()}
	cf.Config.User = fmt.Sprintf("%d:%d", userID, userID)
	cf.Config.WorkingDir = homeDir
	cf.Config.Entrypoint = []string{strataPath}
	cf.Config.Env = []string{
		"PATH=/usr/local/bin",
		"HOME=" + homeDir,
		"STRATA_TOFU=" + tofuPath,
		"SSL_CERT_FILE=" + caPath,
	}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return nil, fmt.Errorf("build image: %w", err)
	}
	return img, nil
}

// filesLayer is the image's only layer, with fixed times and owners so the
// same inputs always give the same digest.
func filesLayer(s spec) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := func(name string, mode int64, uid int) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, Uid: uid, Gid: uid, ModTime: time.Unix(0, 0)})
	}
	data := func(name string, mode int64, b []byte) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(b)), ModTime: time.Unix(0, 0)}); err != nil {
			return err
		}
		_, err := tw.Write(b)
		return err
	}
	file := func(name string, mode int64, src string) error {
		b, err := os.ReadFile(src)
		if err != nil {
			return fmt.Errorf("read %s: %w", src, err)
		}
		return data(name, mode, b)
	}
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:%s:%s:/sbin/nologin\n", userName, userID, userID, userName, homeDir)
	group := fmt.Sprintf("root:x:0:\n%s:x:%d:\n", userName, userID)
	steps := []func() error{
		func() error { return dir("etc", 0o755, 0) },
		func() error { return data("etc/passwd", 0o644, []byte(passwd)) },
		func() error { return data("etc/group", 0o644, []byte(group)) },
		func() error { return dir("etc/ssl", 0o755, 0) },
		func() error { return dir("etc/ssl/certs", 0o755, 0) },
		func() error { return file(caPath[1:], 0o644, s.CA) },
		func() error { return dir("home", 0o755, 0) },
		func() error { return dir(homeDir[1:], 0o700, userID) },
		func() error { return dir("tmp", 0o1777, 0) },
		func() error { return dir("usr", 0o755, 0) },
		func() error { return dir("usr/local", 0o755, 0) },
		func() error { return dir("usr/local/bin", 0o755, 0) },
		func() error { return file(strataPath[1:], 0o755, s.Strata) },
		func() error { return file(sopsPath[1:], 0o755, s.StrataSOPS) },
		func() error { return file(kubePath[1:], 0o755, s.StrataKube) },
		func() error { return file(tofuPath[1:], 0o755, s.Tofu) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, fmt.Errorf("build image layer: %w", err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("build image layer: %w", err)
	}
	b := buf.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("build image layer: %w", err)
	}
	return layer, nil
}
