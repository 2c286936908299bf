package source

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/strata-iac/strata/internal/tofufiles"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// writeTree writes files (slash-separated names) under dir.
func writeTree(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHashDirIsDirhash(t *testing.T) {
	tests := []struct {
		name  string
		files map[string][]byte
	}{
		{"one file", map[string][]byte{"main.tf": []byte(`resource "terraform_data" "a" {}`)}},
		{"an empty file", map[string][]byte{"main.tf": nil, "outputs.tf": []byte("output \"x\" { value = 1 }\n")}},
		{"nested", map[string][]byte{"main.tf": []byte("x"), "modules/a/main.tf": []byte("y"), "modules/b/c/d.tf": []byte("z")}},
		{"larger than the buffer", map[string][]byte{"big.tf.json": bytes.Repeat([]byte("0123456789abcdef"), 5000), "small.tf": []byte("s")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tt.files)
			want, err := dirhash.HashDir(dir, "", dirhash.Hash1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := hashDir(dir, nil)
			if err != nil || got != want {
				t.Errorf("hashDir(%q) = %q, %v, want %q", tt.name, got, err, want)
			}
		})
	}
	if _, err := hashDir(filepath.Join(t.TempDir(), "missing"), nil); err == nil {
		t.Errorf("hashDir(missing) = nil error, want one")
	}
}

func TestResolverHashesADirectoryOnce(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	writeTree(t, a, map[string][]byte{"main.tf": []byte("a")})
	writeTree(t, b, map[string][]byte{"main.tf": []byte("b")})
	r := &Resolver{Root: root}
	var wg sync.WaitGroup
	sums := make([]string, 16)
	for i := range sums {
		wg.Go(func() {
			dir := a
			if i%2 == 1 {
				dir = b
			}
			sums[i], _ = r.hashDir(dir, nil)
		})
	}
	wg.Wait()
	if len(r.hashes) != 2 {
		t.Errorf("Resolver.hashes holds %d directories after 16 asks for 2, want 2", len(r.hashes))
	}
	for i, sum := range sums {
		want := sums[i%2]
		if sum != want || sum == "" {
			t.Errorf("hashDir(#%d) = %q, want %q", i, sum, want)
		}
	}
	if sums[0] == sums[1] {
		t.Errorf("hashDir(a) = hashDir(b) = %q, want different digests for different code", sums[0])
	}
}

// BenchmarkHashDir hashes a three-file stack directory, as a nothing-due
// reconcile does once per stack directory.
func BenchmarkHashDir(b *testing.B) {
	dir := b.TempDir()
	writeTree(b, dir, map[string][]byte{
		"main.tf":      bytes.Repeat([]byte("resource \"terraform_data\" \"r\" {}\n"), 5),
		"variables.tf": []byte("variable \"x\" {}\n"),
		"outputs.tf":   []byte("output \"y\" { value = 1 }\n"),
	})
	b.Run("dirhash.HashDir", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := dirhash.HashDir(dir, "", dirhash.Hash1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hashDir", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := hashDir(dir, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestFetchLocalCodeKinds: a stack whose code is in any of the files tofu
// reads a module from is fetched, and a change to that file changes the
// stack's digest.
func TestFetchLocalCodeKinds(t *testing.T) {
	for _, name := range []string{"main.tf", "main.tf.json", "main.tofu", "main.tofu.json"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			body := []byte(`resource "terraform_data" "a" {}`)
			if tofufiles.IsJSON(name) {
				body = []byte(`{"resource": {"terraform_data": {"a": {}}}}`)
			}
			writeTree(t, root, map[string][]byte{"stack/" + name: body})
			stack := &environment.Stack{
				Name:   "x",
				Path:   "stack",
				Source: environment.Source{Kind: environment.SourceGitRepository, Name: environment.DefaultGitSource},
			}
			fetch := func() Artifact {
				r := &Resolver{Root: root}
				res, err := r.Resolve(context.Background(), stack)
				if err != nil {
					t.Fatalf("Resolve(%s) = %v", name, err)
				}
				a, err := r.Fetch(context.Background(), stack, res)
				if err != nil {
					t.Fatalf("Fetch(%s) = %v", name, err)
				}
				return a
			}
			before := fetch()
			if b, err := os.ReadFile(filepath.Join(before.Dir, name)); err != nil || !bytes.Equal(b, body) {
				t.Errorf("Fetch(%s) dir holds %q, %v, want the stack's code", name, b, err)
			}
			writeTree(t, root, map[string][]byte{"stack/" + name: append(body, '\n')})
			if after := fetch(); after.Digest == before.Digest {
				t.Errorf("Fetch(%s) digest = %s after %s changed, want another", name, after.Digest, name)
			}
		})
	}
}
