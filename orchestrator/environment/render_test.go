package environment

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestLoadDropsResources proves the loader keeps no kustomize resource
// once an environment is loaded: each holds its object's whole YAML node
// tree, and keeping them made memory grow with every stack.
func TestLoadDropsResources(t *testing.T) {
	for _, repo := range fidelityRepos {
		t.Run(repo.name, func(t *testing.T) {
			root := testkit.Copy(t, filepath.Join("..", "testdata", "fidelity", repo.name))
			l, err := read(context.Background(), filepath.Join(root, repo.entry))
			if err != nil {
				t.Fatalf("read(%s) = %v", repo.entry, err)
			}
			n := 0
			for k, objs := range l.rendered {
				for _, o := range objs {
					n++
					if o.res != nil {
						t.Errorf("read(%s): the object of %s rendered for %q keeps its kustomize resource, want none", repo.entry, o.File, k)
					}
				}
			}
			if n == 0 {
				t.Errorf("read(%s) rendered no object, want some", repo.entry)
			}
		})
	}
}

// TestDropResources proves dropResources clears the resource of every
// object and keeps the rest.
func TestDropResources(t *testing.T) {
	root := testkit.Copy(t, filepath.Join("..", "testdata", "fidelity", "seed"))
	l := newLoader(context.Background(), root, "environments/acme/dev")
	objs, p := l.build("environments/acme/dev", nil, nil, "")
	if p != nil {
		t.Fatalf("build(environments/acme/dev) = %v", p)
	}
	if len(objs) == 0 || objs[0].res == nil {
		t.Fatalf("build(environments/acme/dev) = %d objects, want some, each with its resource", len(objs))
	}
	files := make([]string, len(objs))
	for i, o := range objs {
		files[i] = o.File
	}
	got := dropResources(objs)
	for i, o := range got {
		if o.res != nil || o.File != files[i] || o.Object == nil {
			t.Errorf("dropResources(...)[%d] = {File: %q, res set: %v, Object set: %v}, want {File: %q, res set: false, Object set: true}", i, o.File, o.res != nil, o.Object != nil, files[i])
		}
	}
}
