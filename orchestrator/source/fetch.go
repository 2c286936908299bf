package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/Masterminds/semver/v3"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// Artifact is a stack's code, ready to run.
type Artifact struct {
	// Dir holds the stack's root module.
	Dir string
	// Version is the stack's version, when it has an exact one; empty
	// otherwise.
	Version string
	// Digest identifies the exact content ("h1:…" for a local directory).
	Digest string
	// Origin says where the code came from, for logs: "flux-system:PATH".
	Origin string
}

// ErrUnsupported is returned for source kinds this build cannot fetch.
var ErrUnsupported = errors.New("unsupported source")

// Fetch returns the stack's code. root is the repository root.
func Fetch(ctx context.Context, root string, s *environment.Stack) (Artifact, error) {
	if err := ctx.Err(); err != nil {
		return Artifact{}, err
	}
	switch {
	case s.Source.Kind == environment.SourceGitRepository && s.Source.Name == environment.DefaultGitSource:
		return fetchLocal(root, s)
	default:
		return Artifact{}, fmt.Errorf("fetch stack %s: %s %q: %w", s.Name, s.Source.Kind, s.Source.Name, ErrUnsupported)
	}
}

func fetchLocal(root string, s *environment.Stack) (Artifact, error) {
	dir := filepath.Join(root, filepath.FromSlash(s.Path))
	fi, err := os.Stat(dir)
	if err != nil {
		return Artifact{}, fmt.Errorf("fetch stack %s from %s: %w", s.Name, s.Path, err)
	}
	if !fi.IsDir() {
		return Artifact{}, fmt.Errorf("fetch stack %s from %s: not a directory", s.Name, s.Path)
	}
	digest, err := dirhash.HashDir(dir, "", dirhash.Hash1)
	if err != nil {
		return Artifact{}, fmt.Errorf("fetch stack %s from %s: hash: %w", s.Name, s.Path, err)
	}
	return Artifact{
		Dir:     dir,
		Version: exactVersion(s.Version),
		Digest:  digest,
		Origin:  environment.DefaultGitSource + ":" + s.Path,
	}, nil
}

// exactVersion returns v when it names exactly one version (not a range).
func exactVersion(v string) string {
	if _, err := semver.StrictNewVersion(strings.TrimPrefix(v, "v")); err != nil {
		return ""
	}
	return v
}
