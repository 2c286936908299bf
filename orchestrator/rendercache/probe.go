package rendercache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/strata-iac/strata/internal/realpath"
	"github.com/strata-iac/strata/internal/regularfile"
)

// maxProbed is the most bytes of a file a probe hashes, above the
// loader's own limit of a manifest (flux.MaxManifestBytes): a
// larger file is a problem of the load whatever it holds.
const maxProbed = 64 << 20

// Digests of paths that hold nothing to hash.
const (
	absent     = "absent"
	unreadable = "unreadable"
)

// probe returns the digest of what kind of path is now; dirs, when set,
// keeps the real paths it resolved, for one check of an entry's inputs
// (see unchanged).
func probe(kind Kind, path string, dirs *realpath.Cache) string {
	switch kind {
	case File:
		// Never more than the loader reads of one file, and never a named
		// pipe that would block the probe.
		b, err := regularfile.ReadFile(path, maxProbed)
		if err != nil {
			return errDigest(err)
		}
		return digestBytes(b)
	case Stat:
		fi, err := os.Stat(path)
		if err != nil {
			return errDigest(err)
		}
		return modeName(fi.Mode())
	case List:
		return digestList(path)
	case Glob:
		m, err := filepath.Glob(path)
		if err != nil {
			return errDigest(err)
		}
		return digestBytes([]byte(strings.Join(m, "\x00")))
	case Tree:
		d, _ := treeDigest(path, dirs)
		return d
	}
	return conflict
}

// errDigest is the digest of a path that could not be read.
func errDigest(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return absent
	}
	return unreadable
}

// modeName names the kind of a file mode.
func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "dir"
	case m.IsRegular():
		return "file"
	case m&fs.ModeSymlink != 0:
		return "link"
	}
	return "other"
}

// digestList hashes a directory's entries: each name with its kind, a
// symbolic link's kind being that of its target.
func digestList(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return errDigest(err)
	}
	h := sha256.New()
	for _, e := range entries {
		kind := modeName(e.Type())
		if kind == "link" {
			if fi, err := os.Stat(filepath.Join(dir, e.Name())); err == nil {
				kind = "link-" + modeName(fi.Mode())
			}
		}
		fmt.Fprintf(h, "%s\x00%s\n", e.Name(), kind)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// manifestNames are the kustomization file names; every *.yaml and *.yml
// file is a manifest too.
var manifestNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// isManifest reports whether a tree hashes a file's content.
func isManifest(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") || slices.Contains(manifestNames, name)
}

// treeDigest hashes every name and kind below dir, and the content of
// each manifest among them, and returns the paths it walked: every
// directory (true) and every manifest that is a regular file (false).
// Symbolic links are hashed by kind, and the content of a manifest they
// name, but are never walked through.
func treeDigest(dir string, dirs *realpath.Cache) (string, map[string]bool) {
	// A directory that is a symbolic link is walked where it leads.
	real, err := dirs.Eval(dir)
	if err != nil {
		return errDigest(err), nil
	}
	walked := map[string]bool{}
	h := sha256.New()
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(real, p)
		p = filepath.Join(dir, rel)
		kind := modeName(d.Type())
		fmt.Fprintf(h, "%s\x00%s", filepath.ToSlash(rel), kind)
		switch {
		case d.IsDir():
			walked[p] = true
		case isManifest(d.Name()):
			fmt.Fprintf(h, "\x00%s", probe(File, p, nil))
			if d.Type().IsRegular() {
				walked[p] = false
			}
		}
		fmt.Fprintln(h)
		return nil
	})
	if err != nil {
		return unreadable, nil
	}
	return hex.EncodeToString(h.Sum(nil)), walked
}
