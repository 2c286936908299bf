package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	securejoin "github.com/cyphar/filepath-securejoin"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// homeDirName is the home directory tofu runs with when the stack maps
// files to its home: inside the stack's workspace, which every run clears
// and writes again.
const homeDirName = ".strata-home"

// volumesDirName is where a repository's run writes the runner pod's
// volumes (spec.runnerPodTemplate.spec.volumes): a mount path /etc/creds
// is <workspace>/.strata-volumes/etc/creds.
const volumesDirName = ".strata-volumes"

// writeFiles writes the stack's spec.fileMappings before init, as the
// Tofu Controller's runner does: a workspace file under the stack's root
// module, a home file under a home directory of the stack's own (never
// the home of the user strata runs as); and, for a repository's run, the
// runner pod's volumes mounted at mounts, under volumesDirName. It returns that home directory,
// or "" when no file goes there. Files are readable by strata's user
// only, and their content is never logged.
func writeFiles(dir string, files []environment.File, mounts []string) (string, error) {
	home := ""
	for _, m := range mounts {
		// Each mount is a directory, an emptyDir's empty.
		if err := os.MkdirAll(filepath.Join(dir, volumesDirName, filepath.FromSlash(m)), 0o700); err != nil {
			return "", fmt.Errorf("volume mounted at %s: %w", m, err)
		}
	}
	for _, f := range files {
		base := dir
		switch f.Location {
		case environment.FileHome:
			home = filepath.Join(dir, homeDirName)
			base = home
		case environment.FileVolume:
			base = filepath.Join(dir, volumesDirName)
		}
		p, err := securejoin.SecureJoin(base, f.Path)
		if err != nil {
			return "", fmt.Errorf("file mapping %s: %w", f, err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return "", fmt.Errorf("file mapping %s: %w", f, err)
		}
		if err := os.WriteFile(p, f.Content, 0o600); err != nil {
			return "", fmt.Errorf("file mapping %s: %w", f, err)
		}
	}
	return home, nil
}

// localMount is value, an environment variable's, with a mount path of
// mounts it names replaced by the run's copy under dir: /etc/creds/key is
// <dir>/.strata-volumes/etc/creds/key.
func localMount(dir string, mounts []string, value string) string {
	for _, m := range mounts {
		if value == m || strings.HasPrefix(value, m+"/") {
			local := filepath.Join(dir, volumesDirName, filepath.FromSlash(value))
			if abs, err := filepath.Abs(local); err == nil {
				local = abs
			}
			return local
		}
	}
	return value
}
