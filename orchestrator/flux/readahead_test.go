package flux

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/regularfile"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// aheadTree writes files (by path relative to a new directory) and
// returns the directory, and a readAhead of it whose goroutine is not
// started: the test reads each want with readNext.
func aheadTree(t *testing.T, files map[string]string) (string, *readAhead) {
	t.Helper()
	root := t.TempDir()
	for rel, body := range files {
		testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(rel)), body)
	}
	rel := func(p string) string {
		r, _ := filepath.Rel(root, p)
		return filepath.ToSlash(r)
	}
	return root, newReadAhead(rel, func(string) bool { return true }, []string{".sourceignore", ".gitignore"})
}

// readQueued reads every want queued, as the goroutine would.
func readQueued(r *readAhead) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.queue) > 0 {
		r.readNext()
	}
}

// aheadRead is what the loader read of one manifest through r, and
// whether each part was r's answer.
type aheadRead struct {
	Size               int64
	Data               string
	Docs               int
	Problems           diag.Problems
	StatErr, ReadErr   string
	FromAnswer, Parsed bool
}

// readThrough reads p as readChecked does: its stat, its content, its
// documents.
func readThrough(t *testing.T, r *readAhead, root, p string) aheadRead {
	t.Helper()
	abs := filepath.Join(root, p)
	var got aheadRead
	r.mu.Lock()
	a := r.answers[abs]
	got.FromAnswer = a != nil && a.data != nil
	got.Parsed = a != nil && a.parsed
	r.mu.Unlock()
	fi, err := r.statRegular(abs)
	if err != nil {
		got.StatErr = err.Error()
		return got
	}
	got.Size = fi.Size()
	b, err := r.readNoFollow(abs, MaxManifestBytes)
	if err != nil {
		got.ReadErr = err.Error()
		return got
	}
	got.Data = string(b)
	docs, ps := r.decode(abs, p, b)
	got.Docs, got.Problems = len(docs), ps
	return got
}

// TestReadAhead checks that what the loader reads through a readAhead is
// what it reads itself, taken from an answer when the want was read
// first, and that what is held is let go of.
func TestReadAhead(t *testing.T) {
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n"
	const dup = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n"
	tests := []struct {
		name  string
		files map[string]string
		// want lists the manifests asked for, dirs the directories.
		want, dirs []string
		// read says the goroutine reads the wants before the loader does.
		read bool
		// release is let go of before the loader reads.
		release string
		// path is what the loader reads.
		path      string
		wantFrom  bool
		wantParse bool
	}{
		{name: "a manifest read ahead", files: map[string]string{"a.yaml": cm}, want: []string{"a.yaml"}, read: true, path: "a.yaml", wantFrom: true, wantParse: true},
		{name: "a manifest not read yet", files: map[string]string{"a.yaml": cm}, want: []string{"a.yaml"}, path: "a.yaml"},
		{name: "a manifest not asked for", files: map[string]string{"a.yaml": cm}, read: true, path: "a.yaml"},
		{name: "a manifest let go of", files: map[string]string{"a.yaml": cm}, want: []string{"a.yaml"}, read: true, release: "a.yaml", path: "a.yaml"},
		{name: "problems of its documents", files: map[string]string{"a.yaml": dup}, want: []string{"a.yaml"}, read: true, path: "a.yaml", wantFrom: true, wantParse: true},
		{name: "an empty manifest", files: map[string]string{"a.yaml": ""}, want: []string{"a.yaml"}, read: true, path: "a.yaml", wantFrom: true},
		{name: "a file that is not YAML", files: map[string]string{"a.txt": "x"}, want: []string{"a.txt"}, read: true, path: "a.txt", wantFrom: true},
		{name: "a missing manifest", want: []string{"a.yaml"}, read: true, path: "a.yaml"},
		{name: "a directory listed", files: map[string]string{"d/a.yaml": cm}, want: []string{"d"}, read: true, path: "d"},
		{
			name:  "a Kustomization's directory",
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml"), "app/a.yaml": cm},
			dirs:  []string{"app"}, read: true, path: "app/a.yaml", wantFrom: true, wantParse: true,
		},
		{
			name:  "a Kustomization's directory without a kustomization file",
			files: map[string]string{"app/a.yaml": cm},
			dirs:  []string{"app"}, read: true, path: "app/a.yaml",
		},
		{
			name:  "a kustomization file that is not plain",
			files: map[string]string{"app/kustomization.yaml": "resources: [a.yaml]\nresources: [b.yaml]\n", "app/a.yaml": cm},
			dirs:  []string{"app"}, read: true, path: "app/a.yaml",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, r := aheadTree(t, tt.files)
			r.wantFiles(root, tt.want)
			r.mu.Lock()
			for _, d := range tt.dirs {
				r.add(filepath.Join(root, d), wantKustomization)
			}
			r.mu.Unlock()
			if tt.read {
				readQueued(r)
			}
			if tt.release != "" {
				r.release(filepath.Join(root, tt.release))
			}
			got := readThrough(t, r, root, tt.path)
			want := readThrough(t, newReadAhead(r.rel, r.known, r.ignoreFiles), root, tt.path)
			want.FromAnswer, want.Parsed = tt.wantFrom, tt.wantParse
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("read of %s through readAhead (-want +got):\n%s", tt.path, diff)
			}
			// Nothing is read twice from an answer.
			if again := readThrough(t, r, root, tt.path); again.FromAnswer || again.Parsed {
				t.Errorf("second read of %s = from an answer, want read anew", tt.path)
			}
			for _, d := range tt.dirs {
				r.release(filepath.Join(root, d))
			}
			r.releaseFiles(root, tt.want)
			r.mu.Lock()
			defer r.mu.Unlock()
			if len(r.answers) != 0 || len(r.wants) != 0 || r.held != 0 {
				t.Errorf("after every want was let go of: %d answers, %d wants, %d held; want none", len(r.answers), len(r.wants), r.held)
			}
		})
	}
}

// TestReadAheadParts checks that each part of an answer is the loader's
// once, and only for the bytes read ahead: documents parsed ahead are not
// the answer for the same content read anew.
func TestReadAheadParts(t *testing.T) {
	root, r := aheadTree(t, map[string]string{"a.yaml": "a: 1\n"})
	p := filepath.Join(root, "a.yaml")
	r.wantFiles(root, []string{"a.yaml"})
	readQueued(r)
	fresh, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if docs, _ := r.decode(p, "a.yaml", fresh); len(docs) != 1 {
		t.Fatalf("decode(%q) of bytes read anew = %d documents, want 1", p, len(docs))
	}
	r.mu.Lock()
	parsed := r.answers[p] != nil && r.answers[p].parsed
	r.mu.Unlock()
	if !parsed {
		t.Errorf("decode(%q) of bytes read anew took the documents parsed ahead", p)
	}
	b, err := r.readNoFollow(p, 2)
	if !errors.Is(err, regularfile.ErrTooLarge) {
		t.Errorf("readNoFollow(%q, 2) = %q, %v; want ErrTooLarge, as a read with that limit says", p, b, err)
	}
	if b, err = r.readNoFollow(p, 0); err != nil || string(b) != "a: 1\n" {
		t.Fatalf("readNoFollow(%q, 0) = %q, %v; want the file", p, b, err)
	}
	docs, _ := r.decode(p, "a.yaml", b)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(docs) != 1 || r.answers[p] == nil || r.answers[p].parsed {
		t.Errorf("decode(%q) of the bytes read ahead = %d documents, parsed ahead kept %v; want 1, taken", p, len(docs), r.answers[p] != nil && r.answers[p].parsed)
	}
}

// TestReadAheadIgnores: a Kustomization's directory read ahead brings
// its ignore files, each taken once as os.ReadFile would read it, and the
// want of one that is not there; a named pipe is left to the loader.
func TestReadAheadIgnores(t *testing.T) {
	root, r := aheadTree(t, map[string]string{"k/.sourceignore": "x.yaml\n", "k/kustomization.yaml": "resources: []\n"})
	dir := filepath.Join(root, "k")
	fifo := filepath.Join(root, "f")
	testkit.WriteFile(t, filepath.Join(fifo, "kustomization.yaml"), "resources: []\n")
	if err := syscall.Mkfifo(filepath.Join(fifo, ".gitignore"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r.mu.Lock()
	r.add(dir, wantKustomization)
	r.add(fifo, wantKustomization)
	r.mu.Unlock()
	readQueued(r)
	tests := []struct {
		path    string
		want    string
		wantErr error
		ahead   bool
	}{
		{path: filepath.Join(dir, ".sourceignore"), want: "x.yaml\n", ahead: true},
		{path: filepath.Join(dir, ".gitignore"), wantErr: fs.ErrNotExist, ahead: true},
		{path: filepath.Join(fifo, ".sourceignore"), wantErr: fs.ErrNotExist, ahead: true},
		{path: filepath.Join(fifo, ".gitignore")},
	}
	for _, tt := range tests {
		r.mu.Lock()
		a := r.answers[tt.path]
		ahead := a != nil && a.ignoreRead
		r.mu.Unlock()
		if ahead != tt.ahead {
			t.Errorf("read ahead %s = %v, want %v", tt.path, ahead, tt.ahead)
		}
		if !tt.ahead {
			continue
		}
		b, err := r.readIgnore(tt.path)
		if string(b) != tt.want || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
			t.Errorf("readIgnore(%s) = %q, %v; want %q, %v", tt.path, b, err, tt.want, tt.wantErr)
		}
		r.mu.Lock()
		again := r.answers[tt.path] != nil && r.answers[tt.path].ignoreRead
		r.mu.Unlock()
		if again {
			t.Errorf("readIgnore(%s) left the answer to take again, want it taken once", tt.path)
		}
	}
	if b, err := r.readIgnore(filepath.Join(dir, ".sourceignore")); err != nil || string(b) != "x.yaml\n" {
		t.Errorf("readIgnore() once taken = %q, %v; want the file, read anew", b, err)
	}

	// A checkout that is no git work tree: its rules read no .gitignore,
	// so none is read ahead.
	notGit := newReadAhead(r.rel, r.known, []string{".sourceignore"})
	notGit.mu.Lock()
	notGit.add(dir, wantKustomization)
	notGit.mu.Unlock()
	readQueued(notGit)
	notGit.mu.Lock()
	defer notGit.mu.Unlock()
	if a := notGit.answers[filepath.Join(dir, ".sourceignore")]; a == nil || !a.ignoreRead {
		t.Errorf("read ahead %s with ignore files [.sourceignore] = false, want true", filepath.Join(dir, ".sourceignore"))
	}
	if a := notGit.answers[filepath.Join(dir, ".gitignore")]; a != nil {
		t.Errorf("read ahead %s with ignore files [.sourceignore] = %+v, want nothing", filepath.Join(dir, ".gitignore"), a)
	}
}

// TestReadAheadStopWhileReading: a want read when the load stops reading
// ahead (a signal stops the load) keeps nothing, and the goroutine ends
// without a panic.
func TestReadAheadStopWhileReading(t *testing.T) {
	root, r := aheadTree(t, map[string]string{"a.yaml": "a: 1\n"})
	p := filepath.Join(root, "a.yaml")
	r.wantFiles(root, []string{"a.yaml"})
	r.mu.Lock()
	w := r.queue[0]
	w.state = wantReading
	r.stopped = true
	r.queue, r.wants, r.answers = nil, nil, nil
	r.answer(w, []pathAnswer{{p, &aheadAnswer{data: []byte("a: 1\n")}}})
	held := r.held
	r.mu.Unlock()
	if held != 0 {
		t.Errorf("answer() after stop holds %d wants, want none", held)
	}
	if b, err := r.readNoFollow(p, 0); err != nil || string(b) != "a: 1\n" {
		t.Errorf("readNoFollow(%q) after stop = %q, %v; want the file, read by the loader", p, b, err)
	}
}

// TestReadAheadPipe checks that a named pipe where a manifest is asked
// for does not block the goroutine, and that the loader's read of it says
// what it is.
func TestReadAheadPipe(t *testing.T) {
	root, r := aheadTree(t, nil)
	if err := syscall.Mkfifo(filepath.Join(root, "p.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r.wantFiles(root, []string{"p.yaml"})
	done := make(chan struct{})
	go func() {
		readQueued(r)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("reading a named pipe ahead blocked")
	}
	if _, err := r.statRegular(filepath.Join(root, "p.yaml")); !errors.Is(err, regularfile.ErrNotRegular) {
		t.Errorf("statRegular(p.yaml) = %v, want ErrNotRegular", err)
	}
}

// TestReadAheadWindow checks that the goroutine holds at most aheadWindow
// wants answered, reads on as the loader lets them go, and ends with
// stop.
func TestReadAheadWindow(t *testing.T) {
	files := map[string]string{}
	var names []string
	for i := range aheadWindow + 10 {
		n := fmt.Sprintf("m%03d.yaml", i)
		files[n], names = "a: 1\n", append(names, n)
	}
	root, r := aheadTree(t, files)
	go r.run()
	defer r.stop()
	r.wantFiles(root, names)
	settled := func(queued int) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
			r.mu.Lock()
			held, left, waiting := r.held, len(r.queue), r.waiting
			r.mu.Unlock()
			if waiting && left == queued {
				if held > aheadWindow {
					t.Fatalf("held = %d, want at most %d", held, aheadWindow)
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the goroutine did not settle: %d held, %d queued, want %d queued", held, left, queued)
			}
		}
	}
	settled(10)
	// Half the window let go of wakes it; it reads the rest.
	for _, n := range names[:aheadWindow/2] {
		if _, err := r.readNoFollow(filepath.Join(root, n), 0); err != nil {
			t.Fatal(err)
		}
		r.release(filepath.Join(root, n))
	}
	settled(0)
	r.mu.Lock()
	held := r.held
	r.mu.Unlock()
	if want := aheadWindow/2 + 10; held != want {
		t.Errorf("held after reading on = %d, want %d", held, want)
	}
}

// seedRepo writes an environment of n stacks in the seed's layout: a
// group per layer, each Kustomization substituting from the cluster's
// ConfigMap and depending on one of the layer below, a directory per
// stack with its module. The groups sort against the layers' order, so
// that most Kustomizations wait for what they depend on.
func seedRepo(t *testing.T, n int) string {
	t.Helper()
	root, write := benchTree(t)
	dev := "environments/bench/dev/"
	write(dev+"init.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\n  namespace: flux-system\ndata:\n  clientId: bench\n  environment: dev\n  environmentClass: non-prod\n")
	write(dev+"cluster-vars.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-vars\n  namespace: flux-system\ndata:\n  region: eu-west-1\n")
	layers := []string{"account", "network", "cluster", "services"}
	for i := range n {
		layer := layers[min(i*len(layers)/n, len(layers)-1)]
		name := fmt.Sprintf("%s-%04d", layer, i)
		depends := ""
		if l := slices.Index(layers, layer); l > 0 {
			below := fmt.Sprintf("%s-%04d", layers[l-1], (i*len(layers)/n-1)*n/len(layers))
			depends = "  dependsOn:\n    - name: " + below + "\n"
		}
		write(dev+layer+"/"+name+".yaml", benchKustomization(name, depends+"  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: cluster-vars\n"))
		write("flux-apps/bench/"+name+"/kustomization.yaml", kfileOf("terraform.yaml"))
		write("flux-apps/bench/"+name+"/terraform/main.tf", "variable \"name\" {\n  type = string\n}\n")
		write("flux-apps/bench/"+name+"/terraform.yaml", benchTerraform(name, "./flux-apps/bench/"+name+"/terraform", name+"-${region}"))
	}
	return filepath.Join(root, "environments", "bench", "dev")
}

// TestLoadReadAhead checks that a load reading ahead is the load that
// reads everything when asked: the same environment and problems, for
// the fidelity repositories, an entry directory holding an encrypted
// Secret, and an environment in the seed's layout larger than the
// window, whose Kustomizations mostly wait.
func TestLoadReadAhead(t *testing.T) {
	keys, repos := sameLoadRepos(t)
	seed := seedRepo(t, 600)
	repos = append(repos, loadRepo{"seed layout, 600 stacks", filepath.Dir(filepath.Dir(filepath.Dir(seed))), "environments/bench/dev"})
	for _, r := range repos {
		t.Run(r.name, func(t *testing.T) {
			ctx := decryption.WithKeys(context.Background(), keys)
			load := func(ahead bool) (*environment.Environment, diag.Problems) {
				readAheadOn = ahead
				defer func() { readAheadOn = true }()
				l, err := read(ctx, filepath.Join(r.root, r.entry))
				if err != nil {
					t.Fatalf("read(%s) = %v", r.entry, err)
				}
				return l.env, l.sortedProblems()
			}
			wantEnv, wantProblems := load(false)
			gotEnv, gotProblems := load(true)
			if diff := cmp.Diff(wantEnv, gotEnv); diff != "" {
				t.Errorf("read(%s) reading ahead: environment (-not +ahead):\n%s", r.entry, diff)
			}
			if diff := cmp.Diff(wantProblems, gotProblems); diff != "" {
				t.Errorf("read(%s) reading ahead: problems (-not +ahead):\n%s", r.entry, diff)
			}
		})
	}
}

// TestLoadReadAheadTaken checks that a load takes answers read ahead,
// and that its goroutine has ended once it returns.
func TestLoadReadAheadTaken(t *testing.T) {
	entry := seedRepo(t, 300)
	l, err := read(context.Background(), entry)
	if err != nil {
		t.Fatalf("read(%s) = %v", entry, err)
	}
	if n := len(l.env.Stacks); n != 300 {
		t.Errorf("read(%s) = %d stacks, want 300", entry, n)
	}
	if l.ahead == nil {
		t.Fatalf("read(%s) read nothing ahead", entry)
	}
	select {
	case <-l.ahead.done:
	default:
		t.Errorf("read(%s): the goroutine reads on after the load", entry)
	}
	if l.ahead.taken == 0 {
		t.Errorf("read(%s) took no answer read ahead", entry)
	}
}

// TestReadAheadPanic checks that a panic while reading ahead keeps
// nothing and ends nothing: the loader reads the want itself.
func TestReadAheadPanic(t *testing.T) {
	root, r := aheadTree(t, map[string]string{"a.yaml": "a: 1\n"})
	r.known = func(string) bool { panic("known") }
	r.wantFiles(root, []string{"a.yaml"})
	readQueued(r)
	r.mu.Lock()
	answers, held := len(r.answers), r.held
	r.mu.Unlock()
	if answers != 0 || held != 0 {
		t.Errorf("after a panic reading ahead: %d answers, %d held; want none", answers, held)
	}
	if b, err := r.readNoFollow(filepath.Join(root, "a.yaml"), 0); err != nil || string(b) != "a: 1\n" {
		t.Errorf("readNoFollow(a.yaml) = %q, %v; want the file", b, err)
	}
}

// TestReadAheadListing checks that a module directory listed ahead is
// what os.ReadDir lists, taken once.
func TestReadAheadListing(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		dir      string
		wantFrom bool
	}{
		{name: "a module directory", files: map[string]string{"m/main.tf": "", "m/sub/x.tf": ""}, dir: "m", wantFrom: true},
		{name: "an empty directory", files: map[string]string{"m/.keep": ""}, dir: "m", wantFrom: true},
		{name: "a missing directory", dir: "m"},
		{name: "a file", files: map[string]string{"m": ""}, dir: "m"},
	}
	names := func(es []os.DirEntry, err error) []string {
		if err != nil {
			return []string{"error: " + err.Error()}
		}
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprintf("%s dir=%v", e.Name(), e.IsDir()))
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, r := aheadTree(t, tt.files)
			p := filepath.Join(root, tt.dir)
			r.mu.Lock()
			r.add(p, wantListing)
			r.mu.Unlock()
			readQueued(r)
			r.mu.Lock()
			from := r.answers[p] != nil && r.answers[p].listed
			r.mu.Unlock()
			if from != tt.wantFrom {
				t.Errorf("listed ahead %s = %v, want %v", tt.dir, from, tt.wantFrom)
			}
			if diff := cmp.Diff(names(os.ReadDir(p)), names(r.listDir(p))); diff != "" {
				t.Errorf("listDir(%s) (-os.ReadDir +got):\n%s", tt.dir, diff)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			if len(r.answers) != 0 || r.held != 0 {
				t.Errorf("after listDir(%s): %d answers, %d held; want none", tt.dir, len(r.answers), r.held)
			}
		})
	}
}
