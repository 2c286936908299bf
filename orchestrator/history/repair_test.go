package history

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// pageOf returns the first page of the given bbolt type (meta, freelist,
// branch, leaf) in the file at path.
func pageOf(t *testing.T, path, typ string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	found := -1
	err = db.View(func(tx *bolt.Tx) error {
		for id := 0; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return err
			}
			if p.Type == typ {
				found = id
				return nil
			}
		}
	})
	if err != nil || found < 0 {
		t.Fatalf("no %s page in %s (%v)", typ, path, err)
	}
	return found
}

// damaged writes a real history with runs, closes it, and writes garbage
// over its first page of the given type.
func damaged(t *testing.T, typ string) string {
	t.Helper()
	s, path := open(t)
	for _, stack := range []string{"network", "cluster", "app"} {
		for range 3 {
			finish(t, s, begin(t, s, "acme", "dev", stack), ResultApplied)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	size := os.Getpagesize()
	page := pageOf(t, path, typ)
	if typ == "meta" {
		page = 1 // the first meta page is left alone: both are damaged
		if _, err := f.WriteAt(bytes.Repeat([]byte{0xa5}, size), 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xa5}, size), int64(page*size)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenDamaged(t *testing.T) {
	ctx := context.Background()
	for _, typ := range []string{"meta", "freelist", "leaf"} {
		t.Run(typ, func(t *testing.T) {
			path := damaged(t, typ)
			for _, opts := range [][]Option{nil, {ReadOnly()}} {
				s, err := Open(ctx, path, opts...)
				if err == nil {
					// A damaged page that Open does not read must fail the
					// reads that reach it, not panic.
					for _, stack := range []string{"network", "cluster", "app"} {
						if _, err = s.List(ctx, "acme", "dev", stack, 0); err != nil {
							break
						}
					}
					s.Close()
				}
				if typ == "freelist" && len(opts) > 0 {
					// A reader never loads the freelist: it reads on.
					if err != nil {
						t.Errorf("Open(%q, ReadOnly) with the freelist damaged and reads = %v, want nil", path, err)
					}
					continue
				}
				var ce *CorruptError
				if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || !strings.Contains(err.Error(), "strata history ENV --repair") {
					t.Errorf("Open(%q, %d options) and reads = %v, want ErrCorrupt saying how to repair", path, len(opts), err)
				}
			}

			now := time.Date(2026, 11, 30, 4, 5, 6, 0, time.UTC)
			moved, err := Repair(path, now)
			if err != nil || moved != path+".corrupt-20261130T040506Z" {
				t.Fatalf("Repair(%q) = %q, %v, want the file moved aside", path, moved, err)
			}
			if _, err := os.Stat(moved); err != nil {
				t.Errorf("Stat(%q) = %v, want the damaged file kept", moved, err)
			}
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("Open(%q) after Repair = %v, want a new history", path, err)
			}
			defer s.Close()
			if names, err := s.Stacks(ctx, "acme", "dev"); err != nil || len(names) != 0 {
				t.Errorf("Stacks() of the new history = %v, %v, want none", names, err)
			}
		})
	}
}

func TestRepairMissing(t *testing.T) {
	path := t.TempDir() + "/history.db"
	if moved, err := Repair(path, time.Now()); moved != "" || err != nil {
		t.Errorf("Repair(%q) of a missing file = %q, %v, want nothing to do", path, moved, err)
	}
}
