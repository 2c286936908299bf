package rendercache

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fixture is a small repository: a file, a directory with a manifest and
// a file that is not one, and a nested directory.
func fixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range map[string]string{
		"a.txt":                  "a",
		"app/kustomization.yaml": "resources: [cm.yaml]\n",
		"app/cm.yaml":            "kind: ConfigMap\n",
		"app/main.tf":            "# code\n",
		"app/sub/more.yaml":      "kind: Secret\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// record records one input of each kind over the fixture.
func record(t *testing.T, root string) []Input {
	t.Helper()
	r := NewRecorder()
	b, err := os.ReadFile(filepath.Join(root, "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r.File(filepath.Join(root, "a.txt"), b)
	r.Probe(Stat, filepath.Join(root, "missing"))
	r.Probe(List, filepath.Join(root, "app"))
	r.Probe(Glob, filepath.Join(root, "app", "*.yaml"))
	r.Probe(Tree, filepath.Join(root, "app"))
	return r.Inputs()
}

// TestReadWrite keeps a result and reads it back while nothing changed.
func TestReadWrite(t *testing.T) {
	root := fixture(t)
	file := filepath.Join(t.TempDir(), "render", "env.json")
	if err := Write(file, "k", record(t, root), []byte(`{"x":1}`)); err != nil {
		t.Fatalf("Write(%q) = %v", file, err)
	}
	got, ok, err := Read(file, "k")
	if err != nil || !ok || string(got) != `{"x":1}` {
		t.Errorf("Read(%q) = %q, %v, %v; want the result kept", file, got, ok, err)
	}
	for path, want := range map[string]os.FileMode{file: 0o600, filepath.Dir(file): 0o700 | os.ModeDir} {
		if fi, err := os.Stat(path); err != nil || fi.Mode() != want {
			t.Errorf("mode of %s = %v, %v; want %v", path, fi.Mode(), err, want)
		}
	}
}

// TestReadMisses changes one input of each kind, or the key, or the
// entry: every one is a miss.
func TestReadMisses(t *testing.T) {
	write := func(t *testing.T, p, body string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		key    string
		change func(t *testing.T, root, file string)
	}{
		{name: "file content", change: func(t *testing.T, root, _ string) { write(t, filepath.Join(root, "a.txt"), "b") }},
		{name: "file removed", change: func(t *testing.T, root, _ string) { os.Remove(filepath.Join(root, "a.txt")) }},
		{name: "a path that was absent appears", change: func(t *testing.T, root, _ string) { write(t, filepath.Join(root, "missing"), "") }},
		{name: "a listed directory's new entry", change: func(t *testing.T, root, _ string) { write(t, filepath.Join(root, "app", "new.txt"), "") }},
		{name: "a glob's new match", change: func(t *testing.T, root, _ string) { write(t, filepath.Join(root, "app", "new.yaml"), "") }},
		{name: "a manifest deep in a tree", change: func(t *testing.T, root, _ string) {
			write(t, filepath.Join(root, "app", "sub", "more.yaml"), "kind: ConfigMap\n")
		}},
		{name: "a new directory in a tree", change: func(t *testing.T, root, _ string) {
			if err := os.Mkdir(filepath.Join(root, "app", "sub", "deeper"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "another key", key: "other"},
		{name: "a corrupt entry", change: func(t *testing.T, _, file string) { write(t, file, `{"format":1,`) }},
		{name: "an entry of another format", change: func(t *testing.T, _, file string) {
			write(t, file, `{"format":0,"key":"k","inputs":[],"result":{}}`)
		}},
		{name: "no entry", change: func(t *testing.T, _, file string) { os.Remove(file) }},
	}
	for _, by := range []string{"content", "stats"} {
		for _, tt := range tests {
			t.Run(by+"/"+tt.name, func(t *testing.T) {
				if by == "stats" {
					statsStand(t)
				}
				root := fixture(t)
				file := filepath.Join(t.TempDir(), "env.json")
				if err := Write(file, "k", record(t, root), []byte(`{}`)); err != nil {
					t.Fatal(err)
				}
				if tt.change != nil {
					tt.change(t, root, file)
				}
				key := "k"
				if tt.key != "" {
					key = tt.key
				}
				if got, ok, err := Read(file, key); ok || err != nil {
					t.Errorf("Read(%q, %q) = %q, %v, %v; want a miss", file, key, got, ok, err)
				}
			})
		}
	}
}

// statsStand lets a tree's stats stand for its content however recently
// its files changed (filestat.Racy), for the test: a fixture is written
// just before it is recorded.
func statsStand(t *testing.T) {
	t.Helper()
	old := now
	now = func() time.Time { return time.Now().Add(time.Hour) }
	t.Cleanup(func() { now = old })
}

// treeInput returns the tree input of inputs, which must hold one.
func treeInput(t *testing.T, inputs []Input) Input {
	t.Helper()
	for _, in := range inputs {
		if in.Kind == Tree {
			return in
		}
	}
	t.Fatalf("no tree among %v", inputs)
	return Input{}
}

// TestTreeStats: a tree recorded with files changed within filestat.Window
// has no stat digest; one of older files has, and a Read takes it for
// the content (an entry whose tree digest is wrong but whose stat digest
// is right is a hit); a Read that checked a tree by content writes its
// stat digest into the entry.
func TestTreeStats(t *testing.T) {
	root := fixture(t)
	if in := treeInput(t, record(t, root)); in.Stat != "" {
		t.Errorf("Stat of a tree written just now = %q, want none", in.Stat)
	}

	t.Run("stats stand for the content", func(t *testing.T) {
		statsStand(t)
		inputs := record(t, root)
		for i := range inputs {
			if inputs[i].Kind == Tree {
				if inputs[i].Stat == "" {
					t.Fatalf("Stat of a tree of old files is empty")
				}
				inputs[i].Digest = "not read"
			}
		}
		file := filepath.Join(t.TempDir(), "env.json")
		if err := Write(file, "k", inputs, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := Read(file, "k"); !ok || err != nil {
			t.Errorf("Read(%q) = %v, %v; want a hit by the tree's stats", file, ok, err)
		}
	})

	t.Run("a content check writes the stats", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "env.json")
		if err := Write(file, "k", record(t, root), []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		statsStand(t)
		if _, ok, err := Read(file, "k"); !ok || err != nil {
			t.Fatalf("Read(%q) = %v, %v; want a hit", file, ok, err)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatal(err)
		}
		if in := treeInput(t, e.Inputs); in.Stat != treeStat(in.Path, nil) || in.Stat == "" {
			t.Errorf("Stat of the tree after a Read = %q, want %q", in.Stat, treeStat(in.Path, nil))
		}
	})
}

// TestTreeIgnoresCode: a tree hashes the content of manifests only, so a
// change of code beside them does not make a miss.
func TestTreeIgnoresCode(t *testing.T) {
	root := fixture(t)
	r := NewRecorder()
	r.Probe(Tree, filepath.Join(root, "app"))
	before := r.Inputs()
	if err := os.WriteFile(filepath.Join(root, "app", "main.tf"), []byte("# other code\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = NewRecorder()
	r.Probe(Tree, filepath.Join(root, "app"))
	if diff := cmp.Diff(before, r.Inputs()); diff != "" {
		t.Errorf("Tree inputs after a change of main.tf mismatch (-before +after):\n%s", diff)
	}
}

// TestRecordConflict: an input read twice with two results never matches.
func TestRecordConflict(t *testing.T) {
	root := fixture(t)
	p := filepath.Join(root, "a.txt")
	r := NewRecorder()
	r.File(p, []byte("a"))
	r.File(p, []byte("changed while rendering"))
	file := filepath.Join(t.TempDir(), "env.json")
	if err := Write(file, "k", r.Inputs(), []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := Read(file, "k"); ok || err != nil {
		t.Errorf("Read(%q) of a conflicting input = %v, %v; want a miss", file, ok, err)
	}
}

// TestBuild: the running binary has one name, and it is not empty.
func TestBuild(t *testing.T) {
	if b := Build(); b == "" || b != Build() {
		t.Errorf("Build() = %q, then %q; want one non-empty name", b, Build())
	}
}

// TestRecordCovered: what a tree recorded before already covers is left
// out, what it does not cover (code, a read before the tree) is kept.
func TestRecordCovered(t *testing.T) {
	root := fixture(t)
	app := filepath.Join(root, "app")
	r := NewRecorder()
	r.Probe(Stat, app)
	r.Probe(Tree, app)
	r.Probe(Tree, filepath.Join(app, "sub"))
	r.Probe(List, app)
	r.Probe(Stat, filepath.Join(app, "kustomization.yml"))
	r.Probe(Stat, filepath.Join(app, "gone", "kustomization.yml"))
	r.File(filepath.Join(app, "cm.yaml"), []byte("kind: ConfigMap\n"))
	r.File(filepath.Join(app, "main.tf"), []byte("# code\n"))
	var got []string
	for _, in := range r.Inputs() {
		rel, _ := filepath.Rel(root, in.Path)
		got = append(got, string(in.Kind)+" "+filepath.ToSlash(rel))
	}
	want := []string{"stat app", "tree app", "stat app/gone/kustomization.yml", "file app/main.tf"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Inputs() mismatch (-want +got):\n%s", diff)
	}
}
