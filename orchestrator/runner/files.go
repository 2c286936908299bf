package runner

import (
	"fmt"
	"os"
	"path/filepath"

	securejoin "github.com/cyphar/filepath-securejoin"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// homeDirName is the home directory tofu runs with when the stack maps
// files to its home: inside the stack's workspace, which every run clears
// and writes again.
const homeDirName = ".strata-home"

// writeFiles writes the stack's spec.fileMappings before init, as the
// Tofu Controller's runner does: a workspace file under the stack's root
// module, a home file under a home directory of the stack's own (never
// the home of the user strata runs as). It returns that home directory,
// or "" when no file goes there. Files are readable by strata's user
// only, and their content is never logged.
func writeFiles(dir string, files []environment.File) (string, error) {
	home := ""
	for _, f := range files {
		base := dir
		if f.Location == environment.FileHome {
			home = filepath.Join(dir, homeDirName)
			base = home
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
