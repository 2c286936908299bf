package modules

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// Pack writes the module in dir to w as the gzipped tar
// [Store.Add] takes: its files and directories, with dir as the
// top level. Entries whose names start with a dot (.terraform, .git,
// .terraform.lock.hcl) are left out; a symbolic link or another special
// file is an error. The archive depends on the files' names, contents and
// executable bits only, not on times or owners, so packing the same
// directory again gives the same bytes.
func Pack(ctx context.Context, dir string, w io.Writer) error {
	fail := func(err error) error { return fmt.Errorf("pack module %s: %w", dir, err) }
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return fail(err)
	}
	tw := tar.NewWriter(zw)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == dir {
			if !d.IsDir() {
				return fmt.Errorf("%w: not a directory", protocol.ErrInvalid)
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		name := filepath.ToSlash(rel)
		h := &tar.Header{Name: name, ModTime: time.Unix(0, 0)}
		switch {
		case d.IsDir():
			h.Typeflag, h.Name, h.Mode = tar.TypeDir, name+"/", 0o755
			return tw.WriteHeader(h)
		case d.Type().IsRegular():
		default:
			return fmt.Errorf("%w: %s is not a regular file or a directory (%v)", protocol.ErrInvalid, rel, d.Type())
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h.Typeflag, h.Size, h.Mode = tar.TypeReg, info.Size(), 0o644
		if info.Mode().Perm()&0o111 != 0 {
			h.Mode = 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		if _, err := io.CopyN(tw, f, info.Size()); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	if err := tw.Close(); err != nil {
		return fail(err)
	}
	if err := zw.Close(); err != nil {
		return fail(err)
	}
	return nil
}
