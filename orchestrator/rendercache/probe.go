package rendercache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/strata-iac/strata/internal/filestat"
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
		d, _, _ := treeDigest(path, dirs)
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

// now is when a walk starts, for the racy check of the stats it takes
// (filestat.Racy); tests move it.
var now = time.Now

// treeDigest hashes every name and kind below dir, and the content of
// each manifest among them, and returns the paths it walked: every
// directory (true) and every manifest that is a regular file (false).
// Symbolic links are hashed by kind, and the content of a manifest they
// name, but are never walked through.
//
// stat is the digest of the same names and kinds, and of each
// manifest's stat (filestat.Signature) taken before its content was read: a later
// walk that finds the same stat digest (treeStat) finds the same
// content without reading it. It is "" when a manifest is no regular
// file (a link's target has a stat of its own) or changed within
// filestat.Window of the walk (filestat.Racy).
func treeDigest(dir string, dirs *realpath.Cache) (digest string, walked map[string]bool, stat string) {
	return walkTree(dir, dirs, true)
}

// treeStat is the stat digest of treeDigest alone, with no manifest
// read: "" when it has none.
func treeStat(dir string, dirs *realpath.Cache) string {
	_, _, stat := walkTree(dir, dirs, false)
	return stat
}

// walkTree is treeDigest, the content digest and the paths walked left
// out without contents.
func walkTree(dir string, dirs *realpath.Cache, contents bool) (digest string, walked map[string]bool, stat string) {
	// A directory that is a symbolic link is walked where it leads.
	real, err := dirs.Eval(dir)
	if err != nil {
		return errDigest(err), nil, ""
	}
	start := now()
	statOK := true
	if contents {
		walked = map[string]bool{}
	}
	h, hs := sha256.New(), sha256.New()
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(real, p)
		p = filepath.Join(dir, rel)
		kind := modeName(d.Type())
		line := filepath.ToSlash(rel) + "\x00" + kind
		io.WriteString(h, line)
		io.WriteString(hs, line)
		switch {
		case d.IsDir():
			if contents {
				walked[p] = true
			}
		case isManifest(d.Name()):
			if statOK {
				sig, changed, ok := "", time.Time{}, false
				if fi, err := d.Info(); err == nil && d.Type().IsRegular() {
					sig, changed, ok = filestat.Signature(fi)
				}
				statOK = ok && !filestat.Racy(changed, start)
				io.WriteString(hs, "\x00"+sig)
			}
			if contents {
				io.WriteString(h, "\x00"+probe(File, p, nil))
				if d.Type().IsRegular() {
					walked[p] = false
				}
			}
		}
		io.WriteString(h, "\n")
		io.WriteString(hs, "\n")
		return nil
	})
	if err != nil {
		return unreadable, nil, ""
	}
	if statOK {
		stat = hex.EncodeToString(hs.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil)), walked, stat
}
