package flux

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestLoadCachedEqual loads environments with LoadCached twice, the first
// time rendering and keeping the result, the second reading it: both are
// equal to what Load renders.
func TestLoadCachedEqual(t *testing.T) {
	noAgeKeys(t)
	key := sopstest.NewAgeKey(t)
	sops := sopsRepo(t, sopstest.Recipients{Age: []string{key.Recipient}})
	keys := decryption.Keys{AgeKeyFile: key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))}
	tests := []struct {
		name, fixture, dir string
		keys               decryption.Keys
		// decrypts: the render decrypts SOPS values, so it is never kept.
		decrypts bool
		// edit changes a copy of testdata/valid.
		edit func(t *testing.T, root string)
	}{
		{name: "seed layout", fixture: "testdata/valid", dir: "environments/acme/stage"},
		{
			// Nothing is decrypted, so the render is kept, though its
			// decryption Secret is looked for.
			name: "spec.decryption.secretRef with nothing encrypted", fixture: "testdata/valid", dir: "environments/acme/stage",
			edit: func(t *testing.T, root string) {
				testkit.EditFile(t, root, "environments/acme/stage/base/vpc.yaml", "  path: ./flux-apps/base/vpc\n", "  path: ./flux-apps/base/vpc\n  decryption:\n    provider: sops\n    secretRef:\n      name: sops-age\n")
			},
		},
		{name: "SOPS-encrypted Secrets and generator files", fixture: sops, dir: "clusters/dev", keys: keys, decrypts: true},
		{name: "demo dev", fixture: "../..", dir: "environments/demo/dev"},
		{name: "demo stage", fixture: "../..", dir: "environments/demo/stage"},
		{name: "demo prod", fixture: "../..", dir: "environments/demo/prod"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(tt.fixture, tt.dir)
			if tt.fixture == "testdata/valid" {
				root := testkit.Copy(t, tt.fixture)
				if tt.edit != nil {
					tt.edit(t, root)
				}
				dir = filepath.Join(root, tt.dir)
			}
			state := t.TempDir()
			ctx := decryption.WithKeys(context.Background(), tt.keys)
			want, err := Load(ctx, dir)
			if err != nil {
				t.Fatalf("Load(%q) = %v", tt.dir, err)
			}
			for i, wantHit := range []bool{false, true, true} {
				got, hit, err := loadCached(ctx, dir, state)
				if err != nil {
					t.Fatalf("loadCached(%q) #%d = %v", tt.dir, i+1, err)
				}
				if tt.decrypts {
					wantHit = false
				}
				if hit != wantHit {
					t.Errorf("loadCached(%q) #%d hit = %v, want %v", tt.dir, i+1, hit, wantHit)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("loadCached(%q) #%d mismatch with Load (-want +got):\n%s", tt.dir, i+1, diff)
				}
			}
		})
	}
}

// TestLoadCachedInvalidates changes one input of a render after it was
// kept, of every kind a render reads: the next LoadCached renders again,
// and its result (or its problems) is what Load says now.
func TestLoadCachedInvalidates(t *testing.T) {
	const env = "environments/acme/stage"
	patch := func(root string) {
		// A patch from outside the Kustomization's spec.path.
		testkit.WriteFile(t, filepath.Join(root, "flux-apps/shared/patch.yaml"),
			"apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: vpc\n  namespace: flux-system\nspec:\n  approvePlan: auto\n")
		testkit.WriteFile(t, filepath.Join(root, "flux-apps/base/vpc/kustomization.yaml"),
			"apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - terraform.yaml\npatches:\n  - path: ../../shared/patch.yaml\n")
	}
	tests := []struct {
		name string
		// setup prepares the repository before the first load.
		setup func(t *testing.T, root string)
		// change changes one input after it.
		change func(t *testing.T, root string)
	}{
		{
			name: "a Kustomization of the entry directory",
			change: func(t *testing.T, root string) {
				replaceIn(t, filepath.Join(root, env, "base/vpc.yaml"), `cidr: "10.1.0.0/16"`, `cidr: "10.2.0.0/16"`)
			},
		},
		{
			name: "a new file in the entry directory",
			change: func(t *testing.T, root string) {
				testkit.WriteFile(t, filepath.Join(root, env, "apps/extra.yaml"),
					"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: db-overrides\n  namespace: flux-system\ndata:\n  x: y\n")
			},
		},
		{
			name: "a substitution input (init ConfigMap)",
			change: func(t *testing.T, root string) {
				replaceIn(t, filepath.Join(root, env, "init.yaml"), `region: "eu-central-1"`, `region: "eu-west-3"`)
			},
		},
		{
			name: "a substitution input (a group's service-versions)",
			change: func(t *testing.T, root string) {
				replaceIn(t, filepath.Join(root, env, "base/_versions.yaml"), `"1.4.0"`, `"1.5.0"`)
			},
		},
		{
			name: "a file of a Kustomization's spec.path",
			change: func(t *testing.T, root string) {
				replaceIn(t, filepath.Join(root, "flux-apps/base/vpc/terraform.yaml"), "interval: 30m", "interval: 40m")
			},
		},
		{
			name: "a new manifest in a spec.path without a kustomization file",
			change: func(t *testing.T, root string) {
				testkit.WriteFile(t, filepath.Join(root, "flux-apps/apps/db/extra.yaml"),
					"apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: db-extra\n  namespace: flux-system\nspec:\n  path: ./stacks/extra\n  sourceRef:\n    kind: OCIRepository\n    name: db-iac\n")
			},
		},
		{
			name:  "a file a kustomization file refers to outside its directory",
			setup: func(t *testing.T, root string) { patch(root) },
			change: func(t *testing.T, root string) {
				replaceIn(t, filepath.Join(root, "flux-apps/shared/patch.yaml"), "approvePlan: auto", "approvePlan: disable")
			},
		},
		{
			name: "a stack's code directory",
			change: func(t *testing.T, root string) {
				if err := os.Rename(filepath.Join(root, "flux-apps/base/vpc/tf/main.tf"), filepath.Join(root, "flux-apps/base/vpc/tf/main.tf.off")); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "a deleted spec.path",
			change: func(t *testing.T, root string) {
				if err := os.RemoveAll(filepath.Join(root, "flux-apps/apps/empty")); err != nil {
					t.Fatal(err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testkit.Copy(t, "testdata/valid")
			dir, state := filepath.Join(root, env), t.TempDir()
			if tt.setup != nil {
				tt.setup(t, root)
			}
			before, hit, err := loadCached(context.Background(), dir, state)
			if err != nil || hit {
				t.Fatalf("loadCached(%q) = hit %v, %v; want a render without problems", env, hit, err)
			}
			tt.change(t, root)
			want, wantErr := Load(context.Background(), dir)
			got, hit, err := loadCached(context.Background(), dir, state)
			if hit {
				t.Errorf("loadCached(%q) after the change hit the cache, want a render", env)
			}
			if diff := cmp.Diff(problemsOf(wantErr), problemsOf(err)); diff != "" {
				t.Errorf("loadCached(%q) problems mismatch with Load (-want +got):\n%s", env, diff)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("loadCached(%q) mismatch with Load (-want +got):\n%s", env, diff)
			}
			if wantErr == nil && cmp.Equal(before, got) {
				t.Errorf("loadCached(%q) after the change = the environment before it, want the change seen", env)
			}
		})
	}
}

// problemsOf returns the problems of a load's error, or the error's text.
func problemsOf(err error) any {
	var ps diag.Problems
	if errors.As(err, &ps) {
		return ps
	}
	if err != nil {
		return err.Error()
	}
	return nil
}

// replaceIn replaces old with new in a file, which must hold old.
func replaceIn(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s holds no %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadCachedDecryptionKeys: an environment decrypted with an age key
// is never kept, so no decrypted value is on disk and, with another key,
// the next load finds that it cannot decrypt, instead of handing out what
// the first key opened.
func TestLoadCachedDecryptionKeys(t *testing.T) {
	noAgeKeys(t)
	key := sopstest.NewAgeKey(t)
	root := sopsRepo(t, sopstest.Recipients{Age: []string{key.Recipient}})
	keyFile := key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))
	ctx := decryption.WithKeys(context.Background(), decryption.Keys{AgeKeyFile: keyFile})
	dir, state := filepath.Join(root, "clusters", "dev"), t.TempDir()
	for i := range 2 {
		if _, hit, err := loadCached(ctx, dir, state); err != nil || hit {
			t.Fatalf("loadCached(clusters/dev) #%d = hit %v, %v; want a render, no error: a render that decrypts is never kept", i+1, hit, err)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(state, "render", "*")); len(files) != 0 {
		t.Errorf("render cache files after rendering SOPS Secrets = %v, want none: decrypted values are kept nowhere", files)
	}
	other := sopstest.NewAgeKey(t)
	other.WriteKeyFile(t, keyFile)
	env, hit, err := loadCached(ctx, dir, state)
	if hit || len(environment.AllProblems(env, err)) == 0 {
		t.Errorf("loadCached(clusters/dev) with another key = hit %v, %v; want a render that cannot decrypt", hit, err)
	}
}

// TestLoadCachedCorrupt overwrites the kept render with what is not one:
// the next load renders again, equal to Load, and keeps it anew.
func TestLoadCachedCorrupt(t *testing.T) {
	root := testkit.Copy(t, "testdata/valid")
	dir, state := filepath.Join(root, "environments/acme/stage"), t.TempDir()
	if _, _, err := loadCached(context.Background(), dir, state); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(state, "render", "*.json"))
	if err != nil || len(files) != 1 {
		t.Fatalf("render cache files = %v, %v; want one", files, err)
	}
	fi, err := os.Stat(files[0])
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("render cache file mode = %v, %v; want 0600", fi.Mode(), err)
	}
	want, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"", "{", `{"format":1,"key":"x"}`, "null"} {
		if err := os.WriteFile(files[0], []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		got, hit, err := loadCached(context.Background(), dir, state)
		if err != nil || hit {
			t.Errorf("loadCached with cache %q = hit %v, %v; want a render", body, hit, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("loadCached with cache %q mismatch with Load (-want +got):\n%s", body, diff)
		}
		if _, hit, _ := loadCached(context.Background(), dir, state); !hit {
			t.Errorf("loadCached after a corrupt cache %q was rendered again = miss, want it kept anew", body)
		}
	}
}

// TestRenderKey changes each part of the render key in turn: each gives
// another key.
func TestRenderKey(t *testing.T) {
	base := renderKey{Build: "go1.26 strata abc", Options: `{"LoadRestrictions":2}`, Keys: "k1", Root: "/repo", Dir: "environments/a/b"}
	tests := []struct {
		name   string
		change func(*renderKey)
	}{
		{"strata's build", func(k *renderKey) { k.Build = "go1.26 strata abd" }},
		{"the build options", func(k *renderKey) { k.Options = `{"LoadRestrictions":1}` }},
		{"the decryption keys", func(k *renderKey) { k.Keys = "k2" }},
		{"the repository", func(k *renderKey) { k.Root = "/other" }},
		{"the environment", func(k *renderKey) { k.Dir = "environments/a/c" }},
		{"a part's bytes moved to the next", func(k *renderKey) { k.Root, k.Dir = "/repo/environments", "a/b" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := base
			tt.change(&k)
			if k.String() == base.String() {
				t.Errorf("renderKey(%+v) = renderKey(%+v) = %s, want them different", k, base, k.String())
			}
		})
	}
	if base.String() != base.String() {
		t.Errorf("renderKey(%+v) differs between two calls", base)
	}
}
