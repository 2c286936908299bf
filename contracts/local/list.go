package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// List returns the keys of the documents under prefix (not the document at
// prefix itself), sorted. prefix is a key path: "/configuration" lists
// "/configuration/network" but not "/configurations/x"; "" and "/" list
// every document.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list contracts %s: %w", prefix, err)
	}
	p := "/" + strings.Trim(prefix, "/")
	segs, err := segments(p)
	if err != nil {
		return nil, fmt.Errorf("list contracts: %w", err)
	}
	root := filepath.Join(append([]string{s.dir}, segs...)...)
	var keys []string
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if path == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if path == root && !e.IsDir() {
			return nil
		}
		name := e.Name()
		if path != root && strings.HasPrefix(name, ".") {
			// Temporary files, and nothing Put writes.
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() || !e.Type().IsRegular() || !strings.HasSuffix(name, ext) {
			return nil
		}
		rel, err := filepath.Rel(s.dir, path)
		if err != nil {
			return err
		}
		keys = append(keys, "/"+strings.TrimSuffix(filepath.ToSlash(rel), ext))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list contracts %s: %w", prefix, err)
	}
	slices.Sort(keys)
	return keys, nil
}
