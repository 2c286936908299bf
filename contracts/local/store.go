package local

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/strata-iac/strata/contracts"
)

// ext is the file extension of a stored document.
const ext = ".json"

// Store keeps contract documents as files under a directory.
type Store struct {
	dir string
}

var _ contracts.Store = (*Store)(nil)

// New returns a store under dir, which is created when the first document
// is written.
func New(dir string) *Store { return &Store{dir: dir} }

// path returns the file of a key, after checking the key.
func (s *Store) path(key string) (string, error) {
	segs, err := segments(key)
	if err != nil {
		return "", err
	}
	if len(segs) == 0 {
		return "", fmt.Errorf("invalid contract key %q: it names no document", key)
	}
	return filepath.Join(s.dir, filepath.Join(segs...)) + ext, nil
}

// segments checks a key or prefix and splits it: it must start with "/",
// and no segment may be empty, "." or "..", or hold a backslash or NUL.
// "/" alone has no segments.
func segments(key string) ([]string, error) {
	if !strings.HasPrefix(key, "/") {
		return nil, fmt.Errorf("invalid contract key %q: it must start with \"/\"", key)
	}
	if key == "/" {
		return nil, nil
	}
	segs := strings.Split(key[1:], "/")
	for _, seg := range segs {
		switch {
		case seg == "":
			return nil, fmt.Errorf("invalid contract key %q: empty segment", key)
		case seg == "." || seg == "..":
			return nil, fmt.Errorf("invalid contract key %q: segment %q is not allowed", key, seg)
		case strings.ContainsAny(seg, "\\\x00"):
			return nil, fmt.Errorf("invalid contract key %q: segment %q holds a backslash or NUL", key, seg)
		case strings.HasPrefix(seg, "."):
			// Hidden names are where temporary files go.
			return nil, fmt.Errorf("invalid contract key %q: segment %q starts with a dot", key, seg)
		}
	}
	return segs, nil
}
