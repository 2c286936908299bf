package modules

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// Add stores archive as version of the module
// namespace/name/system, at modules/<namespace>/<name>/<system>/<version>.tar.gz
// in the store, for the Module Registry Protocol.
//
// version is a semantic version such as 1.2.0 or 1.2.0-rc.1, lower case,
// without build metadata. The archive must be a gzipped tar whose top
// level is the module's directory: at least one .tf, .tf.json, .tofu or
// .tofu.json file there; only regular files and directories, and no path
// leaving the archive. The write is atomic, as for a provider archive:
// adding the same bytes again succeeds and changes nothing; different
// bytes for a version that exists fail with [protocol.ErrExists], because a
// published version never changes. Malformed input wraps [protocol.ErrInvalid].
func (s *Store) Add(ctx context.Context, namespace, name, system, version string, archive io.Reader) error {
	fail := func(err error) error {
		return fmt.Errorf("add module %s/%s/%s %s: %w", namespace, name, system, version, err)
	}
	m, err := checkRef(ctx, namespace, name, system, version)
	if err != nil {
		return fail(err)
	}
	key := archiveKey(m, version)
	var sum []byte
	err = s.st.Create(ctx, key, archive, func(f *os.File) error {
		if err := checkArchive(f); err != nil {
			return err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		sum, err = sha256Of(ctx, f)
		return err
	})
	if errors.Is(err, fs.ErrExist) {
		same, err := s.sameContent(ctx, key, sum)
		if err != nil {
			return fail(err)
		}
		if !same {
			return fail(fmt.Errorf("archive %s%s: %w", version, archiveExt, protocol.ErrExists))
		}
		return nil
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// moduleFileExts end the names of the files tofu reads a module from.
var moduleFileExts = []string{".tf", ".tf.json", ".tofu", ".tofu.json"}

// checkArchive checks that f is a gzipped tar of a module directory
// that tofu can unpack and load. It reads the whole archive, so a
// truncated one fails.
func checkArchive(f io.Reader) error {
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%w module archive: want a gzipped tar: %w", protocol.ErrInvalid, err)
	}
	tr := tar.NewReader(zr)
	found := false
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%w module archive: %w", protocol.ErrInvalid, err)
		}
		// tar -C dir -czf x.tar.gz . names entries ./main.tf.
		name := strings.TrimSuffix(strings.TrimPrefix(h.Name, "./"), "/")
		switch h.Typeflag {
		case tar.TypeXGlobalHeader:
			// git archive writes one, with the commit; it is no file.
			continue
		case tar.TypeReg, tar.TypeDir:
		default:
			return fmt.Errorf("%w module archive: %q is not a regular file or a directory (type %q)", protocol.ErrInvalid, h.Name, h.Typeflag)
		}
		if name == "." || (name == "" && h.Typeflag == tar.TypeDir) {
			continue
		}
		if name == "" || strings.ContainsAny(name, "\\\x00") || !fs.ValidPath(name) {
			return fmt.Errorf("%w module archive: file name %q", protocol.ErrInvalid, h.Name)
		}
		if h.Typeflag == tar.TypeReg && !strings.Contains(name, "/") && hasModuleFileExt(name) {
			found = true
		}
		if _, err := io.Copy(io.Discard, tr); err != nil {
			return fmt.Errorf("%w module archive: %q: %w", protocol.ErrInvalid, h.Name, err)
		}
	}
	if !found {
		return fmt.Errorf("%w module archive: no .tf or .tofu file at its top level, where tofu loads the module from", protocol.ErrInvalid)
	}
	return nil
}

// hasModuleFileExt reports whether name is a file tofu reads a module from.
func hasModuleFileExt(name string) bool {
	for _, ext := range moduleFileExts {
		if strings.HasSuffix(name, ext) && path.Base(name) != ext {
			return true
		}
	}
	return false
}

// sha256Of reads r to its end and returns its SHA-256.
func sha256Of(ctx context.Context, r io.Reader) ([]byte, error) {
	h := sha256.New()
	if _, err := io.Copy(h, storage.ContextReader(ctx, r)); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// sameContent reports whether the file at key has the given SHA-256.
func (s *Store) sameContent(ctx context.Context, key string, want []byte) (bool, error) {
	o, err := s.st.Open(ctx, key)
	if err != nil {
		return false, err
	}
	defer o.Close()
	got, err := sha256Of(ctx, o)
	if err != nil {
		return false, err
	}
	return bytes.Equal(got, want), nil
}
