package providers

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/strata-iac/strata/registry-mirror/storage"
	"golang.org/x/mod/sumdb/dirhash"
)

// Hashes are the two checksums tofu checks a provider archive against and
// records in .terraform.lock.hcl.
type Hashes struct {
	// H1 is "h1:" and the base64 dirhash Hash1 of the archive's files:
	// the hash tofu computes of a package, packed or unpacked.
	H1 string
	// ZH is "zh:" and the hex SHA-256 of the archive file itself.
	ZH string
}

// List is the hashes as a version index lists them: h1 first, then zh.
func (h Hashes) List() []string { return []string{h.H1, h.ZH} }

// HashArchive computes the hashes of the zip archive at path.
func HashArchive(ctx context.Context, path string) (Hashes, error) {
	f, err := os.Open(path)
	if err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", path, err)
	}
	defer f.Close()
	h, err := hashFile(ctx, f)
	if err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", path, err)
	}
	return h, nil
}

// hashFile computes the hashes of an open zip archive: h1 as
// dirhash.HashZip does, over the files the zip lists, and zh over the
// file's bytes.
func hashFile(ctx context.Context, f *os.File) (Hashes, error) {
	if err := ctx.Err(); err != nil {
		return Hashes{}, err
	}
	info, err := f.Stat()
	if err != nil {
		return Hashes{}, err
	}
	z, err := zip.NewReader(f, info.Size())
	if err != nil {
		return Hashes{}, err
	}
	var names []string
	files := map[string]*zip.File{}
	for _, zf := range z.File {
		names = append(names, zf.Name)
		files[zf.Name] = zf
	}
	h1, err := dirhash.Hash1(names, func(name string) (io.ReadCloser, error) { return files[name].Open() })
	if err != nil {
		return Hashes{}, err
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, storage.ContextReader(ctx, io.NewSectionReader(f, 0, info.Size()))); err != nil {
		return Hashes{}, err
	}
	return Hashes{H1: h1, ZH: "zh:" + hex.EncodeToString(sum.Sum(nil))}, nil
}

// hashesSuffix ends the name of the file beside an archive that holds its
// hashes: <archive>.zip.hashes.
const hashesSuffix = ".hashes"

// hashesFile is the content of a hashes file: the hashes, and the size
// and modification time of the archive they are of.
type hashesFile struct {
	H1      string    `json:"h1"`
	ZH      string    `json:"zh"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
}

// modTimeSlack is how far the modification time an archive shows may be
// from the one in its hashes file: listings and HEAD responses of S3
// give it to the second, and not all services round it alike.
const modTimeSlack = time.Second

// of reports whether the hashes file is of the archive f.
func (h hashesFile) of(f storage.FileInfo) bool {
	d := h.ModTime.Sub(f.ModTime)
	return h.H1 != "" && h.ZH != "" && h.Size == f.Size && d <= modTimeSlack && d >= -modTimeSlack
}

// cachedHashes are an archive's hashes, valid while the file keeps its
// size and modification time.
type cachedHashes struct {
	size    int64
	modTime time.Time
	hashes  Hashes
}

// archiveHashes returns the hashes of the archive at key, whose size and
// modification time are f's. They are computed once per archive: an
// upload writes them to the hashes file beside the archive, and they are
// kept in memory once read. Serving an index therefore never reads an
// archive, also on S3. An archive without a valid hashes file (copied in
// by hand, or changed since) is read and hashed, and the hashes file
// written for next time; when that write fails, as it does on a read-only
// mirror, the hashes are kept in memory only.
func (s *Store) archiveHashes(ctx context.Context, key string, f storage.FileInfo) (Hashes, error) {
	s.mu.Lock()
	c, ok := s.hashes[key]
	s.mu.Unlock()
	if ok && c.size == f.Size && c.modTime.Equal(f.ModTime) {
		return c.hashes, nil
	}
	h, ok, err := s.readHashes(ctx, key, f)
	if err != nil {
		return Hashes{}, err
	}
	if !ok {
		if h, err = s.computeHashes(ctx, key); err != nil {
			return Hashes{}, err
		}
		s.writeHashes(ctx, key, f, h) // best effort, see above
	}
	s.cacheHashes(key, f, h)
	return h, nil
}

// cacheHashes keeps an archive's hashes in memory.
func (s *Store) cacheHashes(key string, f storage.FileInfo, h Hashes) {
	s.mu.Lock()
	s.hashes[key] = cachedHashes{size: f.Size, modTime: f.ModTime, hashes: h}
	s.mu.Unlock()
}

// readHashes reads the hashes file of the archive at key; ok is false
// when there is none, or it is not of the archive f.
func (s *Store) readHashes(ctx context.Context, key string, f storage.FileInfo) (Hashes, bool, error) {
	o, err := s.st.Open(ctx, key+hashesSuffix)
	if errors.Is(err, fs.ErrNotExist) {
		return Hashes{}, false, nil
	}
	if err != nil {
		return Hashes{}, false, fmt.Errorf("read hashes of %s: %w", key, err)
	}
	defer o.Close()
	data, err := io.ReadAll(io.LimitReader(o, 64<<10))
	if err != nil {
		return Hashes{}, false, fmt.Errorf("read hashes of %s: %w", key, err)
	}
	var hf hashesFile
	if json.Unmarshal(data, &hf) != nil || !hf.of(f) {
		return Hashes{}, false, nil
	}
	return Hashes{H1: hf.H1, ZH: hf.ZH}, true, nil
}

// writeHashes writes the hashes file of the archive at key.
func (s *Store) writeHashes(ctx context.Context, key string, f storage.FileInfo, h Hashes) error {
	data, err := json.MarshalIndent(hashesFile{H1: h.H1, ZH: h.ZH, Size: f.Size, ModTime: f.ModTime.UTC()}, "", "  ")
	if err != nil {
		return err
	}
	if err := s.st.Replace(ctx, key+hashesSuffix, append(data, '\n')); err != nil {
		return fmt.Errorf("write hashes of %s: %w", key, err)
	}
	return nil
}

// computeHashes reads the archive at key and hashes it: in place in a
// directory, through a local temporary copy from S3.
func (s *Store) computeHashes(ctx context.Context, key string) (Hashes, error) {
	o, err := s.st.Open(ctx, key)
	if err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", s.st.Location(key), err)
	}
	defer o.Close()
	if f, ok := storage.LocalFile(o); ok {
		h, err := hashFile(ctx, f)
		if err != nil {
			return Hashes{}, fmt.Errorf("hash archive %s: %w", s.st.Location(key), err)
		}
		return h, nil
	}
	tmp, err := os.CreateTemp("", "strata-mirror-hash-*")
	if err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", s.st.Location(key), err)
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}()
	if err := storage.Spool(ctx, tmp, o); err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", s.st.Location(key), err)
	}
	h, err := hashFile(ctx, tmp)
	if err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", s.st.Location(key), err)
	}
	return h, nil
}
