package kuberecords

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

// A held plan's files travel as one gzipped tar, its payload, split over
// Secrets of at most partBytes each (the API server takes at most 1 MiB
// per object), at most maxParts of them.
const (
	partBytes = 768 << 10
	maxParts  = 8
	// MaxPlanBytes is the most a held plan's files take, gzipped: beyond
	// it Hold fails and the plan is not held.
	MaxPlanBytes = partBytes * maxParts
)

// ErrPlanTooLarge means a plan's files, gzipped, are more than the
// cluster records keep (MaxPlanBytes).
var ErrPlanTooLarge = errors.New("plan too large for the cluster records")

// pack gzips files, in order, into a tar, and splits it into parts.
func pack(files []file) (parts [][]byte, sum string, err error) {
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
	if len(b) > MaxPlanBytes {
		return nil, "", fmt.Errorf("%w: its files take %d KiB gzipped, and at most %d KiB are kept (%d Secrets of %d KiB)",
			ErrPlanTooLarge, len(b)>>10, MaxPlanBytes>>10, maxParts, partBytes>>10)
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

// file is one file of a held plan.
type file struct {
	name string
	data []byte
}

// digest is the hex sha256 of b.
func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
