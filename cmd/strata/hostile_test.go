package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
)

// hostileRepo copies the valid repository of the flux package's
// tests and lays the case's directory of testdata/hostile over it, then
// lets make add what git cannot hold.
func hostileRepo(t *testing.T, name string, make func(t *testing.T, root string)) string {
	t.Helper()
	root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "flux", "testdata", "valid"))
	over := filepath.Join("testdata", "hostile", name)
	if _, err := os.Stat(over); err == nil {
		err := filepath.WalkDir(over, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(over, p)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			testkit.WriteFile(t, filepath.Join(root, rel), string(b))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if make != nil {
		make(t, root)
	}
	return root
}

// apps is the directory of the hostile repository's Kustomizations, with
// no kustomization file: Flux's generator reads every file under it.
const apps = "environments/acme/stage/apps"

// TestHostileCorpus runs `strata validate` on each case of
// testdata/hostile: each returns within 10 s with a clear error or a
// correct result, and SIGTERM 2 s into it ends it within 2 s more.
func TestHostileCorpus(t *testing.T) {
	bin := buildStrata(t)
	for _, tc := range []struct {
		name string
		make func(t *testing.T, root string)
		args []string
		// env is the directory validated, environments/acme/stage when
		// empty.
		env string
		// code is the exit code wanted, exitFailed when 0; valid wants
		// exitConverged (a warning).
		code  int
		valid bool
		want  []string
	}{
		{name: "alias-bomb", want: []string{apps + "/bomb.yaml", "the alias *h at line 19", "100000 nodes"}},
		{name: "deep-nesting", want: []string{apps + "/deep.yaml", "nests 5000 levels deep (at line 9)", "more than the 100"}},
		{name: "self-component", want: []string{"Kustomization vpc", "cycle detected"}},
		{name: "path-root", want: []string{"Kustomization/empty", "is defined twice under ./"}},
		{name: "list-document", want: []string{apps + "/list.yaml", "the document at line 2 is a sequence (a list of items), not an object", "must be a mapping of apiVersion, kind and metadata", "as a YAML document of its own"}},
		{name: "duplicate-name", want: []string{"Kustomization/db is defined twice", apps + "/db-again.yaml:2 and " + apps + "/db.yaml:1"}},
		{name: "not-an-environment", env: "flux-apps/base/vpc/tf", make: func(t *testing.T, root string) {
			// A checkout, so that the root is the repository's.
			if out, err := exec.Command("git", "-C", root, "init", "--quiet").CombinedOutput(); err != nil {
				t.Fatalf("git init: %v: %s", err, out)
			}
		}, valid: true, want: []string{"flux-apps/base/vpc/tf/ is not an environment", "no Flux Kustomization", "such as environments/acme/stage"}},
		{name: "inputs-bomb", args: []string{"--inputs", "INPUTS/vpc.yaml"}, code: exitUsage, want: []string{"vpc.yaml", "the alias *h at line 18", "100000 nodes"}},
		{name: "big-file", make: func(t *testing.T, root string) {
			f, err := os.Create(filepath.Join(root, apps, "big.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			fmt.Fprint(f, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: flux-system\ndata:\n  x: \"")
			chunk := bytes.Repeat([]byte("a"), 1<<20)
			for range 100 {
				if _, err := f.Write(chunk); err != nil {
					t.Fatal(err)
				}
			}
			fmt.Fprint(f, "\"\n")
		}, want: []string{apps + "/big.yaml", "100 MiB", "more than the 32 MiB"}},
		{name: "fifo", make: func(t *testing.T, root string) {
			if err := syscall.Mkfifo(filepath.Join(root, apps, "pipe.yaml"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, want: []string{apps + "/pipe.yaml", "a named pipe (FIFO)", "replace"}},
		{name: "symlink-loop", make: func(t *testing.T, root string) {
			for _, l := range [][2]string{{"loop1.yaml", "loop2.yaml"}, {"loop2.yaml", "loop1.yaml"}} {
				if err := os.Symlink(l[1], filepath.Join(root, apps, l[0])); err != nil {
					t.Fatal(err)
				}
			}
		}, want: []string{apps + "/loop1.yaml", "too many levels of symbolic links"}},
		{name: "many-files", make: func(t *testing.T, root string) {
			dir := filepath.Join(root, apps, "empty")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for i := range 100_000 {
				f, err := os.Create(filepath.Join(dir, fmt.Sprintf("f%06d.yaml", i)))
				if err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
		}, want: []string{apps, "more than 20000 manifest files", "no kustomization file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := hostileRepo(t, tc.name, tc.make)
			args := []string{"validate", filepath.Join(root, filepath.FromSlash(cmp.Or(tc.env, "environments/acme/stage")))}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "INPUTS", filepath.Join("testdata", "hostile", tc.name)))
			}
			// To the end: within 10 s, with a clear error.
			out, code, took := runWithin(t, bin, args, 10*time.Second, 0)
			t.Logf("strata validate %s exited %d after %v", tc.name, code, took)
			want := cmp.Or(tc.code, exitFailed)
			if tc.valid {
				want = exitConverged
			}
			if code != want {
				t.Errorf("strata validate %s exited %d, want %d\n%s", tc.name, code, want, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("strata validate %s said:\n%s\nwant it to say %q", tc.name, out, w)
				}
			}
			// Signalled 2 s in (or done before): ended within 2 s more.
			runWithin(t, bin, args, 4*time.Second, 2*time.Second)
			// In this process too, where make test runs the race
			// detector over the loader: the same answer.
			type result struct {
				out  string
				code int
			}
			done := make(chan result, 1)
			go func() {
				out, errOut, code := strata(t, args...)
				done <- result{out + errOut, code}
			}()
			select {
			case r := <-done:
				if r.code != want || !strings.Contains(r.out, tc.want[0]) {
					t.Errorf("strata validate %s in process = %d, want %d saying %q\n%s", tc.name, r.code, want, tc.want[0], r.out)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("strata validate %s in process still ran after 60s", tc.name)
			}
		})
	}
}

// runWithin runs strata with args, sends SIGTERM after signal when that is
// not zero, and fails the test when it runs longer than within. It returns
// what strata wrote, its exit code and how long it ran.
func runWithin(t *testing.T, bin string, args []string, within, signal time.Duration) (string, int, time.Duration) {
	t.Helper()
	p := startStrata(t, bin, args, nil)
	if signal > 0 {
		select {
		case <-p.done:
		case <-time.After(signal):
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	p.waitUntil(t, p.started.Add(within), fmt.Sprintf("ran past %v", within))
	return p.out.String(), p.cmd.ProcessState.ExitCode(), time.Since(p.started)
}

// process is a strata a test started.
type process struct {
	cmd *exec.Cmd
	// out is what it wrote, stdout and stderr.
	out     *bytes.Buffer
	started time.Time
	// done is closed once it has exited.
	done chan struct{}
}

// startStrata starts bin with args, and env added to the test's.
func startStrata(t *testing.T, bin string, args, env []string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), out: &bytes.Buffer{}, done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	p.started = time.Now()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.done)
	}()
	return p
}

// waitUntil waits for the process to exit by deadline; past it, it kills
// the process and fails the test saying why, with what it wrote.
func (p *process) waitUntil(t *testing.T, deadline time.Time, why string) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(time.Until(deadline)):
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("strata %s %s:\n%s", strings.Join(p.cmd.Args[1:], " "), why, p.out)
	}
}
