package hashkey

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/strata-iac/strata/internal/atomicfile"
)

// File is the key's file name in the state directory.
const File = "hash.key"

// Size is the length of a key in bytes.
const Size = 32

// Load returns the key kept in dir, creating it when there is none. A file
// that is not a key is an error that names it and the fix; it is never
// replaced, so nothing is lost by reading it.
func Load(dir string) ([]byte, error) {
	path := filepath.Join(dir, File)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("load hash key %s: %w", path, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("load hash key %s: %w", path, err)
	}
	defer root.Close()
	key, err := New()
	if err != nil {
		return nil, fmt.Errorf("create hash key %s: %w", path, err)
	}
	err = atomicfile.CreateIn(root, File, 0o600, func(f *os.File) error {
		_, err := f.Write(key)
		return err
	})
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create hash key %s: %w", path, err)
	}
	f, err := root.Open(File)
	if err != nil {
		return nil, fmt.Errorf("load hash key %s: %w", path, err)
	}
	defer f.Close()
	got, err := io.ReadAll(io.LimitReader(f, Size+1))
	if err != nil {
		return nil, fmt.Errorf("load hash key %s: %w", path, err)
	}
	if len(got) != Size {
		return nil, fmt.Errorf("load hash key %s: %d bytes, want %d: delete the file and strata creates a new key (every stack is then planned once more)", path, len(got), Size)
	}
	return got, nil
}

// New returns a new random key.
func New() ([]byte, error) {
	key := make([]byte, Size)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return key, nil
}

// ID names a key without revealing it: a short HMAC of a fixed message.
func ID(key []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("strata hash key id"))
	return hex.EncodeToString(m.Sum(nil)[:6])
}
