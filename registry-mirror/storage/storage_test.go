package storage_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
)

// TestStorage checks what the store relies on, on both storages: files
// written by create and replace read back, list shows only the files
// directly in a directory, create never replaces a file, and a failed
// create leaves nothing behind.
func TestStorage(t *testing.T) {
	ctx := context.Background()
	for _, b := range mirrortest.Storages {
		t.Run(b.Name, func(t *testing.T) {
			st := b.New(t)
			read := func(key string) string {
				t.Helper()
				o, err := st.Open(ctx, key)
				if err != nil {
					t.Fatalf("open(%q) = %v, want nil", key, err)
				}
				defer o.Close()
				data, err := io.ReadAll(o)
				if err != nil {
					t.Fatalf("read %q = %v", key, err)
				}
				return string(data)
			}
			names := func(dir string) []string {
				t.Helper()
				files, err := st.List(ctx, dir)
				if err != nil {
					t.Fatalf("list(%q) = %v, want nil", dir, err)
				}
				var out []string
				for _, f := range files {
					out = append(out, f.Name)
				}
				return out
			}
			noCheck := func(*os.File) error { return nil }

			if got := names("a/b"); len(got) != 0 {
				t.Errorf("list(a/b) of an empty storage = %q, want none", got)
			}
			for _, key := range []string{"a/b/missing", "missing"} {
				if _, err := st.Stat(ctx, key); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("stat(%q) = %v, want fs.ErrNotExist", key, err)
				}
				if _, err := st.Open(ctx, key); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("open(%q) = %v, want fs.ErrNotExist", key, err)
				}
			}

			var checked string
			err := st.Create(ctx, "a/b/one", strings.NewReader("first"), func(f *os.File) error {
				data, err := io.ReadAll(f)
				checked = string(data)
				return err
			})
			if err != nil {
				t.Fatalf("create(a/b/one) = %v, want nil", err)
			}
			if checked != "first" {
				t.Errorf("create(a/b/one) checked %q, want the bytes from their start", checked)
			}
			if got := read("a/b/one"); got != "first" {
				t.Errorf("read(a/b/one) = %q, want %q", got, "first")
			}
			info, err := st.Stat(ctx, "a/b/one")
			if err != nil || info.Size != 5 || info.Name != "one" || info.ModTime.IsZero() {
				t.Errorf("stat(a/b/one) = %+v, %v, want one of 5 bytes with a time", info, err)
			}

			if err := st.Create(ctx, "a/b/one", strings.NewReader("second"), noCheck); !errors.Is(err, fs.ErrExist) {
				t.Errorf("create(a/b/one) again = %v, want fs.ErrExist", err)
			}
			if got := read("a/b/one"); got != "first" {
				t.Errorf("read(a/b/one) after a second create = %q, want the first %q", got, "first")
			}

			refused := errors.New("refused")
			if err := st.Create(ctx, "a/b/two", strings.NewReader("bad"), func(*os.File) error { return refused }); !errors.Is(err, refused) {
				t.Errorf("create(a/b/two) with a failing check = %v, want %v", err, refused)
			}
			broken := io.MultiReader(strings.NewReader("part"), errReader{io.ErrUnexpectedEOF})
			if err := st.Create(ctx, "a/b/three", broken, noCheck); !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "read archive") {
				t.Errorf("create(a/b/three) of a broken reader = %v, want a read archive error", err)
			}

			if err := st.Replace(ctx, "a/b/one.hashes", []byte("v1")); err != nil {
				t.Fatalf("replace(a/b/one.hashes) = %v, want nil", err)
			}
			if err := st.Replace(ctx, "a/b/one.hashes", []byte("v2")); err != nil {
				t.Fatalf("replace(a/b/one.hashes) again = %v, want nil", err)
			}
			if got := read("a/b/one.hashes"); got != "v2" {
				t.Errorf("read(a/b/one.hashes) = %q, want %q", got, "v2")
			}
			if err := st.Replace(ctx, "a/b/c/deeper", []byte("x")); err != nil {
				t.Fatal(err)
			}
			// Only the files directly in a/b, none of the failed creates.
			if diff := cmp.Diff([]string{"one", "one.hashes"}, names("a/b")); diff != "" {
				t.Errorf("list(a/b) mismatch (-want +got):\n%s", diff)
			}
			if err := st.Check(ctx); err != nil {
				t.Errorf("check() = %v, want nil", err)
			}
		})
	}
}

// TestStorageSeek reads parts of a file as range requests do.
func TestStorageSeek(t *testing.T) {
	ctx := context.Background()
	data := []byte("0123456789abcdefghij")
	for _, b := range mirrortest.Storages {
		t.Run(b.Name, func(t *testing.T) {
			st := b.New(t)
			if err := st.Replace(ctx, "f", data); err != nil {
				t.Fatal(err)
			}
			o, err := st.Open(ctx, "f")
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			tests := []struct {
				offset int64
				whence int
				n      int
				want   string
			}{
				{0, io.SeekEnd, 0, ""},
				{0, io.SeekStart, 3, "012"},
				{2, io.SeekCurrent, 3, "567"},
				{-4, io.SeekEnd, 4, "ghij"},
				{15, io.SeekStart, 2, "fg"},
				{1, io.SeekStart, 2, "12"},
			}
			for _, tt := range tests {
				if _, err := o.Seek(tt.offset, tt.whence); err != nil {
					t.Fatalf("Seek(%d, %d) = %v", tt.offset, tt.whence, err)
				}
				buf := make([]byte, tt.n)
				if _, err := io.ReadFull(o, buf); err != nil {
					t.Fatalf("ReadFull after Seek(%d, %d) = %v", tt.offset, tt.whence, err)
				}
				if string(buf) != tt.want {
					t.Errorf("read after Seek(%d, %d) = %q, want %q", tt.offset, tt.whence, buf, tt.want)
				}
			}
			if _, err := o.Seek(0, io.SeekEnd); err != nil {
				t.Fatal(err)
			}
			if n, err := o.Read(make([]byte, 1)); n != 0 || err != io.EOF {
				t.Errorf("Read at the end = %d, %v, want 0, EOF", n, err)
			}
			if _, err := o.Seek(-1, io.SeekStart); err == nil {
				t.Errorf("Seek(-1) = nil error, want one")
			}
			if o.Info().Size != int64(len(data)) {
				t.Errorf("Info().Size = %d, want %d", o.Info().Size, len(data))
			}
		})
	}
}

// TestStorageConcurrentCreate creates one key from several goroutines at
// once: exactly one wins, whole, and the others get fs.ErrExist.
func TestStorageConcurrentCreate(t *testing.T) {
	ctx := context.Background()
	for _, b := range mirrortest.Storages {
		t.Run(b.Name, func(t *testing.T) {
			st := b.New(t)
			bodies := []string{"a", "bb", "ccc", "dddd"}
			errs := make([]error, len(bodies))
			var wg sync.WaitGroup
			for i, body := range bodies {
				wg.Go(func() {
					errs[i] = st.Create(ctx, "k/race", strings.NewReader(body), func(*os.File) error { return nil })
				})
			}
			wg.Wait()
			won := -1
			for i, err := range errs {
				switch {
				case err == nil && won == -1:
					won = i
				case errors.Is(err, fs.ErrExist):
				default:
					t.Errorf("create(%d) = %v, want nil for one and fs.ErrExist for the others", i, err)
				}
			}
			if won == -1 {
				t.Fatalf("create() = %v, want one to succeed", errs)
			}
			o, err := st.Open(ctx, "k/race")
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			got, _ := io.ReadAll(o)
			if !bytes.Equal(got, []byte(bodies[won])) {
				t.Errorf("k/race = %q, want the winner's %q", got, bodies[won])
			}
		})
	}
}

// errReader fails every read.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
