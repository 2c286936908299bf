package mirror

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/strata-iac/strata/registry-mirror/mirror/mirrortest"
)

// TestHashArchive checks the hashes against what tofu computes: h1 over
// the unpacked package directory (dirhash.HashDir with no prefix, as tofu
// hashes an installed provider) and zh over the archive file.
func TestHashArchive(t *testing.T) {
	tests := []struct {
		name  string
		files []mirrortest.File
	}{
		{"one executable", []mirrortest.File{{Name: "terraform-provider-x_v1.0.0", Mode: 0o755, Body: "#!/bin/sh\n"}}},
		{"executable and docs", []mirrortest.File{
			{Name: "terraform-provider-x_v1.0.0", Mode: 0o755, Body: "binary"},
			{Name: "LICENSE", Body: "MIT"},
			{Name: "README.md", Body: "# x"},
		}},
		{"nested file", []mirrortest.File{
			{Name: "terraform-provider-x", Mode: 0o755, Body: "binary"},
			{Name: "docs/index.md", Body: "docs"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := mirrortest.ZipFile(t, dir, "x.zip", tt.files...)
			got, err := HashArchive(context.Background(), path)
			if err != nil {
				t.Fatalf("HashArchive(%q) = %v, want nil", path, err)
			}
			h1, err := dirhash.HashDir(unzip(t, path), "", dirhash.Hash1)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			want := Hashes{H1: h1, ZH: "zh:" + hex.EncodeToString(sum[:])}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("HashArchive(%q) mismatch (-want +got):\n%s", path, diff)
			}
			if diff := cmp.Diff([]string{want.H1, want.ZH}, got.List()); diff != "" {
				t.Errorf("Hashes.List() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHashArchiveErrors(t *testing.T) {
	dir := t.TempDir()
	notZip := filepath.Join(dir, "not.zip")
	if err := os.WriteFile(notZip, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		path string
		want error
	}{
		{"missing", context.Background(), filepath.Join(dir, "missing.zip"), os.ErrNotExist},
		{"not a zip", context.Background(), notZip, zip.ErrFormat},
		{"cancelled", cancelled, notZip, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := HashArchive(tt.ctx, tt.path)
			if !errors.Is(err, tt.want) {
				t.Errorf("HashArchive(%q) = %v, want %v", tt.path, err, tt.want)
			}
		})
	}
}

// TestArchiveHashesCache checks that hashes are computed once per file
// content and again when the file changes.
func TestArchiveHashesCache(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := NewStore(dir)
	path := mirrortest.ZipFile(t, dir, "x.zip", mirrortest.File{Name: "terraform-provider-x", Mode: 0o755, Body: "one"})
	hashes := func() Hashes {
		t.Helper()
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		h, err := s.archiveHashes(ctx, path, info)
		if err != nil {
			t.Fatalf("archiveHashes(%q) = %v", path, err)
		}
		return h
	}
	first := hashes()
	s.hashes[path] = cachedHashes{size: s.hashes[path].size, modTime: s.hashes[path].modTime, hashes: Hashes{H1: "h1:cached"}}
	if got := hashes(); got.H1 != "h1:cached" {
		t.Errorf("archiveHashes(%q) = %v, want the cached result", path, got)
	}
	mirrortest.ZipFile(t, dir, "x.zip", mirrortest.File{Name: "terraform-provider-x", Mode: 0o755, Body: "two, longer"})
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, future, future); err != nil {
		t.Fatal(err)
	}
	second := hashes()
	if second == first || second.H1 == "h1:cached" {
		t.Errorf("archiveHashes(%q) after a change = %v, want new hashes (first %v)", path, second, first)
	}
}

// unzip unpacks a zip into a new directory, as tofu installs a package.
func unzip(t *testing.T, path string) string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	dir := t.TempDir()
	for _, f := range z.File {
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, f.Mode().Perm())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, r); err != nil {
			t.Fatal(err)
		}
		r.Close()
		w.Close()
	}
	return dir
}
