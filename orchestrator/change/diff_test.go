package change

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// summary lists "env: stack:cause …" and the status of each environment.
func summary(d *Report) map[string]string {
	out := map[string]string{}
	for _, e := range d.Environments {
		var parts []string
		for _, s := range e.Stacks {
			p := s.Stack + ":" + s.Cause
			for _, r := range s.Reads {
				p += "<" + r.Producer
			}
			parts = append(parts, p)
		}
		out[e.Dir] = e.Status + " " + strings.Join(parts, " ")
	}
	return out
}

func TestDiff(t *testing.T) {
	root := fleetRepo(t, []string{"acme", "beta"}, 3)
	edit := func(rel, old, new string) {
		body := readFile(t, filepath.Join(root, rel))
		if !strings.Contains(body, old) {
			panic(rel + " has no " + old) // a mistake of the test's own
		}
		writeFile(t, root, rel, strings.Replace(body, old, new, 1))
	}
	unchanged := map[string]string{
		"environments/acme/dev": "unchanged ", "environments/acme/prod": "unchanged ",
		"environments/beta/dev": "unchanged ", "environments/beta/prod": "unchanged ",
	}
	with := func(changes map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range unchanged {
			out[k] = v
		}
		for k, v := range changes {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name string
		edit func()
		dirs []string
		want map[string]string
	}{
		{name: "nothing", edit: func() {}, want: unchanged},
		{name: "a file no render reads", edit: func() { writeFile(t, root, "README.md", "# fleet\n") }, want: unchanged},
		{
			name: "a producer's variables: its consumers follow, naming it",
			edit: func() { edit("flux-apps/base/s000/terraform.yaml", `value: "s000-`, `value: "net-`) },
			want: map[string]string{
				"environments/acme/dev":  "changed s000:variables s001:contract<s000 s002:contract<s000",
				"environments/acme/prod": "changed s000:variables s001:contract<s000 s002:contract<s000",
				"environments/beta/dev":  "changed s000:variables s001:contract<s000 s002:contract<s000",
				"environments/beta/prod": "changed s000:variables s001:contract<s000 s002:contract<s000",
			},
		},
		{
			name: "code shared by every stack",
			edit: func() {
				writeFile(t, root, "flux-apps/stacks/app/main.tf", "variable \"name\" {\n  type = string\n}\n\noutput \"x\" {\n  value = 1\n}\n")
			},
			want: map[string]string{
				"environments/acme/dev":  "changed s000:code s001:code<s000 s002:code<s000",
				"environments/acme/prod": "changed s000:code s001:code<s000 s002:code<s000",
				"environments/beta/dev":  "changed s000:code s001:code<s000 s002:code<s000",
				"environments/beta/prod": "changed s000:code s001:code<s000 s002:code<s000",
			},
		},
		{
			name: "one version in one client's prod",
			edit: func() {
				writeFile(t, root, "environments/beta/prod/stacks/versions.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: service-versions\n  namespace: flux-system\ndata:\n  version_s000_tf: \"0.1.0\"\n  version_s001_tf: \"0.3.0\"\n  version_s002_tf: \"0.1.0\"\n")
				edit("environments/beta/prod/stacks/kustomization.yaml", "  - ../../../../shared/versions\n", "  - versions.yaml\n")
			},
			want: with(map[string]string{"environments/beta/prod": "changed s001:version"}),
		},
		{
			name: "a stack removed, an environment added, one removed",
			edit: func() {
				edit("environments/acme/dev/stacks/kustomization.yaml", "  - s002.yaml\n", "")
				if err := os.RemoveAll(filepath.Join(root, "environments/beta/prod")); err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{"init.yaml", "stacks/kustomization.yaml", "stacks/s000.yaml"} {
					body := readFile(t, filepath.Join(root, "environments/acme/dev", f))
					writeFile(t, root, "environments/acme/qa/"+f, strings.ReplaceAll(body, "environment: dev", "environment: qa"))
				}
				edit("environments/acme/qa/stacks/kustomization.yaml", "  - s001.yaml\n", "")
			},
			want: with(map[string]string{
				"environments/acme/dev":  "changed s002:removed",
				"environments/acme/qa":   "new s000:new",
				"environments/beta/prod": "removed s000:removed s001:removed s002:removed",
			}),
		},
		{
			name: "a stack a problem now blocks, neither removed nor planned",
			edit: func() { edit("flux-apps/base/s001/terraform.yaml", "  interval: 10m\n", "  interval: often\n") },
			want: map[string]string{
				"environments/acme/dev":  "changed s001:blocked",
				"environments/acme/prod": "changed s001:blocked",
				"environments/beta/dev":  "changed s001:blocked",
				"environments/beta/prod": "changed s001:blocked",
			},
		},
		{
			name: "an environment that does not load",
			edit: func() { writeFile(t, root, "environments/acme/prod/stacks/s001.yaml", "kind: [unclosed\n") },
			want: with(map[string]string{"environments/acme/prod": "invalid "}),
		},
		{
			name: "only the environments named",
			edit: func() { edit("flux-apps/base/s001/terraform.yaml", `value: "s001-`, `value: "app-`) },
			dirs: []string{"environments/beta/dev"},
			want: map[string]string{"environments/beta/dev": "changed s001:variables"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Cleanup(func() {
				gitIn(t, root, "checkout", "--quiet", "--", ".")
				gitIn(t, root, "clean", "--quiet", "-fd")
			})
			tt.edit()
			d := diffAt(t, root, "main", tt.dirs...)
			if diff := cmp.Diff(tt.want, summary(d)); diff != "" {
				t.Errorf("Diff(%q) (-want +got):\n%s", tt.name, diff)
			}
			if d.Base != "main" || len(d.Commit) != 40 {
				t.Errorf("Diff(%q) base = %q %q, want main and its commit", tt.name, d.Base, d.Commit)
			}
		})
	}
}

func TestCheckoutBase(t *testing.T) {
	root := fleetRepo(t, []string{"acme"}, 1)
	ctx := context.Background()
	if _, err := CheckoutBase(ctx, root, "no-such-branch"); err == nil || !strings.Contains(err.Error(), "no-such-branch names no commit") {
		t.Errorf("CheckoutBase(no-such-branch) = %v, want it to name no commit", err)
	}
	if _, err := CheckoutBase(ctx, root, "--output=x"); err == nil {
		t.Errorf("CheckoutBase(--output=x) = nil, want an error")
	}
	writeFile(t, root, "environments/acme/dev/init.yaml", "changed in the work tree\n")
	co, err := CheckoutBase(ctx, root, "main")
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(co.Dir, "environments/acme/dev/init.yaml")); !strings.Contains(got, "clientId: acme") {
		t.Errorf("the checkout's init.yaml = %q, want the base's", got)
	}
	if err := co.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(co.Dir); !os.IsNotExist(err) {
		t.Errorf("the checkout %s is left after Close: %v", co.Dir, err)
	}
	if got := readFile(t, filepath.Join(root, "environments/acme/dev/init.yaml")); got != "changed in the work tree\n" {
		t.Errorf("the work tree's init.yaml = %q after a checkout, want it as it was", got)
	}
	if list := gitIn(t, root, "worktree", "list"); strings.Count(list, "\n") != 1 {
		t.Errorf("git worktree list = %q, want the work tree alone", list)
	}
}

// TestCheckoutAbandon: a checkout abandoned (a forced exit) leaves neither
// its directory nor git's record of it, and the next checkout works.
func TestCheckoutAbandon(t *testing.T) {
	root := fleetRepo(t, []string{"acme"}, 1)
	ctx := context.Background()
	co, err := CheckoutBase(ctx, root, "main")
	if err != nil {
		t.Fatal(err)
	}
	if co.admin == "" {
		t.Fatalf("CheckoutBase(main) admin = \"\", want git's record of the work tree")
	}
	co.Abandon()
	if _, err := os.Stat(co.Dir); !os.IsNotExist(err) {
		t.Errorf("the checkout %s is left after Abandon: %v", co.Dir, err)
	}
	if list := gitIn(t, root, "worktree", "list"); strings.Count(list, "\n") != 1 {
		t.Errorf("git worktree list = %q after Abandon, want the work tree alone", list)
	}
	next, err := CheckoutBase(ctx, root, "main")
	if err != nil {
		t.Fatalf("CheckoutBase(main) after Abandon = %v", err)
	}
	if err := next.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPrepareBaseAbandon: a prepared checkout knows git's record of it
// before git writes it, so that a process ended while git lays it out
// (git's record then locked, "initializing") removes it all the same.
func TestPrepareBaseAbandon(t *testing.T) {
	root := fleetRepo(t, []string{"acme"}, 1)
	ctx := context.Background()
	co, err := PrepareBase(ctx, root, "main")
	if err != nil {
		t.Fatal(err)
	}
	predicted := co.admin
	if err := co.Add(ctx); err != nil {
		t.Fatal(err)
	}
	if co.admin != predicted {
		t.Errorf("PrepareBase(main) admin = %q, git wrote %q", predicted, co.admin)
	}
	// As git leaves it when stopped midway through worktree add.
	if err := os.WriteFile(filepath.Join(co.admin, "locked"), []byte("initializing"), 0o644); err != nil {
		t.Fatal(err)
	}
	co.Abandon()
	if list := gitIn(t, root, "worktree", "list"); strings.Count(list, "\n") != 1 {
		t.Errorf("git worktree list = %q after Abandon of a locked checkout, want the work tree alone", list)
	}
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	next, err := PrepareBase(ctx, root, "main")
	if err != nil {
		t.Fatal(err)
	}
	if err := next.Add(stopped); err == nil {
		t.Errorf("Add(stopped) = nil, want an error")
	}
	if _, err := os.Stat(next.tmp); !os.IsNotExist(err) {
		t.Errorf("the checkout %s is left after a stopped Add: %v", next.tmp, err)
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"environments/acme/dev/init.yaml", "environments/acme/prod/init.yaml", "environments/shared/x/readme.txt", "clusters/eu/flux.yaml", "clusters/.hidden/x.yaml"} {
		writeFile(t, root, f, "x")
	}
	got, err := Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"clusters/eu", "environments/acme/dev", "environments/acme/prod"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Discover(%q) (-want +got):\n%s", root, diff)
	}
}
