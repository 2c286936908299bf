package doclinks

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocLinks checks every relative link and anchor of the repository's
// Markdown pages (the README, docs/ and the packages' READMEs; not
// testdata), as GitHub resolves them.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	var pages []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (name == "testdata" || name == "bin" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			pages = append(pages, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"README.md", "docs/README.md"} {
		if !contains(pages, want) {
			t.Fatalf("pages found = %q, want %s among them", pages, want)
		}
	}
	problems, err := Check(t.Context(), root, pages)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
