package change

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
)

// Discover lists every environment of the repository at root, relative to
// it and slash-separated, sorted: each environments/<client>/<env> that
// holds an init.yaml (the seed layout, as CheckIdentity reads it), and
// each directory clusters/<name> (a Flux bootstrap).
func Discover(root string) ([]string, error) {
	var out []string
	inits, err := filepath.Glob(filepath.Join(root, "environments", "*", "*", "init.yaml"))
	if err != nil {
		return nil, fmt.Errorf("list environments of %s: %w", root, err)
	}
	for _, f := range inits {
		if fi, err := os.Stat(f); err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(root, filepath.Dir(f))
			out = append(out, filepath.ToSlash(rel))
		}
	}
	clusters, err := os.ReadDir(filepath.Join(root, "clusters"))
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("list environments of %s: %w", root, err)
	}
	for _, e := range clusters {
		if e.IsDir() && e.Name()[0] != '.' {
			out = append(out, path.Join("clusters", e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}
