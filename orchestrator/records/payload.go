package records

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"
)

// MaxParts is the most parts a held plan's payload is split over: with
// Objects.PartBytes, the most its files take gzipped.
const MaxParts = 8

// ErrPlanTooLarge means a plan's files, gzipped, are more than MaxParts
// parts of a store that bounds its objects keep: the plan is not held.
var ErrPlanTooLarge = errors.New("plan too large for the records")

// pack gzips files, in order, into a tar, and splits it into parts of at
// most partBytes.
func pack(files []file, partBytes int) (parts [][]byte, sum string, err error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		hdr := &tar.Header{Name: f.name, Mode: 0o600, Size: int64(len(f.data)), ModTime: time.Unix(0, 0)}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, "", err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, "", err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, "", err
	}
	if err := zw.Close(); err != nil {
		return nil, "", err
	}
	b := buf.Bytes()
	if limit := partBytes * MaxParts; len(b) > limit {
		return nil, "", fmt.Errorf("%w: its files take %d KiB gzipped, and at most %d KiB are kept (%d objects of %d KiB)",
			ErrPlanTooLarge, len(b)>>10, limit>>10, MaxParts, partBytes>>10)
	}
	for len(b) > 0 {
		n := min(len(b), partBytes)
		parts = append(parts, b[:n])
		b = b[n:]
	}
	return parts, digest(buf.Bytes()), nil
}

// unpack joins parts, checks them against sum and returns the files.
func unpack(parts [][]byte, sum string) ([]file, error) {
	b := bytes.Join(parts, nil)
	if got := digest(b); got != sum {
		return nil, fmt.Errorf("its parts do not match its digest (sha256 %s, want %s): it was held again while being read; read it again", got, sum)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	var files []file
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files = append(files, file{name: hdr.Name, data: data})
	}
}

// digest is the hex sha256 of b.
func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
