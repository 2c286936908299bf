package flux

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"sigs.k8s.io/kustomize/api/krusty"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// keepRendered asks a load to keep the objects each build rendered in
// loader.rendered.
func keepRendered(ctx context.Context) context.Context {
	return context.WithValue(ctx, keepRenderedKey{}, true)
}

// TestLoadDropsResources proves the loader keeps no kustomize resource
// once an environment is loaded: each holds its object's whole YAML node
// tree, and keeping them made memory grow with every stack.
func TestLoadDropsResources(t *testing.T) {
	for _, repo := range fidelityRepos {
		t.Run(repo.name, func(t *testing.T) {
			root := testkit.Copy(t, filepath.Join("..", "testdata", "fidelity", repo.name))
			l, err := read(keepRendered(context.Background()), filepath.Join(root, repo.entry))
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
// object of a Kustomization's build and keeps the rest. (Those of the
// entry directory's build come without: nothing substitutes them.)
func TestDropResources(t *testing.T) {
	root := testkit.Copy(t, filepath.Join("..", "testdata", "fidelity", "seed"))
	l := newLoader(context.Background(), root, "environments/acme/dev")
	flux := map[string]any{"spec": map[string]any{"path": "./flux-apps/app"}}
	objs, p := l.build("flux-apps/app", fluxKustomization(flux), l.rulesForRef(nil, nil), nil, "Kustomization/app")
	if p != nil {
		t.Fatalf("build(flux-apps/app) = %v", p)
	}
	if len(objs) == 0 || objs[0].res == nil {
		t.Fatalf("build(flux-apps/app) = %d objects, want some, each with its resource", len(objs))
	}
	entry, p := l.build("environments/acme/dev", nil, l.rulesForRef(nil, nil), nil, "")
	if p != nil || len(entry) == 0 || slices.ContainsFunc(entry, func(o renderedObject) bool { return o.res != nil }) {
		t.Errorf("build(environments/acme/dev) = %d objects, %v, want some, none with its resource", len(entry), p)
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

// writeKustomizations writes n Flux Kustomizations, one file each, into
// dir; dup names the index whose file repeats the first one's name, or -1.
func writeKustomizations(t *testing.T, dir string, n, dup int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := fmt.Sprintf("app-%03d", i)
		if i == dup {
			name = "app-000"
		}
		doc := fmt.Sprintf("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: %s\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./flux-apps/%s\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n", name, name)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file-%03d.yaml", i)), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBuildInParts proves that an entry directory larger than a part
// renders exactly the objects one kustomize build of it renders, and that
// an object defined twice, in different parts or in one, is the same
// problem.
func TestBuildInParts(t *testing.T) {
	n := 2*partSize + 5
	t.Run("the same objects as one build", func(t *testing.T) {
		root := t.TempDir()
		writeKustomizations(t, filepath.Join(root, "env", "apps"), n, -1)
		l := newLoader(context.Background(), root, "env")
		l.keepRendered = true
		got, p := l.build("env/apps", nil, l.rulesForRef(nil, nil), nil, "")
		if p != nil {
			t.Fatalf("build(env/apps) = %v", p)
		}
		// One build, by kustomize, of a kustomization file listing them all.
		whole := t.TempDir()
		writeKustomizations(t, whole, n, -1)
		files := make([]string, n)
		for i := range n {
			files[i] = fmt.Sprintf("file-%03d.yaml", i)
		}
		k, err := yaml.Marshal(kustypes.Kustomization{Resources: files})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(whole, "kustomization.yaml"), k, 0o644); err != nil {
			t.Fatal(err)
		}
		rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), whole)
		if err != nil {
			t.Fatalf("kustomize build of %d files = %v", n, err)
		}
		var want []map[string]any
		for _, r := range rm.Resources() {
			m, err := r.Map()
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, m)
		}
		gotObjs := make([]map[string]any, 0, len(got))
		for _, o := range got {
			gotObjs = append(gotObjs, o.Object)
		}
		byName := func(a, b map[string]any) int { return strings.Compare(objectKey(a), objectKey(b)) }
		slices.SortFunc(gotObjs, byName)
		slices.SortFunc(want, byName)
		if len(want) != n {
			t.Fatalf("kustomize build of %d files = %d objects, want %d", n, len(want), n)
		}
		if diff := cmp.Diff(want, gotObjs); diff != "" {
			t.Errorf("build(env/apps) mismatch (-one build +parts):\n%s", diff)
		}
	})
	t.Run("an object defined twice", func(t *testing.T) {
		var msgs, want []string
		for _, size := range []int{partSize / 2, n} {
			root := t.TempDir()
			writeKustomizations(t, filepath.Join(root, "env", "apps"), size, size-1)
			l := newLoader(context.Background(), root, "env")
			_, p := l.build("env/apps", nil, l.rulesForRef(nil, nil), nil, "")
			if p == nil {
				t.Fatalf("build(env/apps) of %d files, two of one name = no problem, want one", size)
			}
			msgs = append(msgs, p.File+": "+p.Message+" | "+p.Fix)
			at := fmt.Sprintf("env/apps/file-000.yaml:1 and env/apps/file-%03d.yaml:1", size-1)
			want = append(want, fmt.Sprintf("env/apps/file-%03d.yaml: Kustomization/app-000 is defined twice under env/apps/: in %s | rename or remove one of the Kustomization objects named app-000, in %s", size-1, at, at))
		}
		if diff := cmp.Diff(want, msgs); diff != "" {
			t.Errorf("build(env/apps) problems, in one build and in parts (-want +got):\n%s", diff)
		}
	})
}

// TestPredecode: an entry directory's objects are decoded as they are
// collected, and let go of their maps, except those read as maps before
// they are registered: a Secret, the Kustomization that applies the
// entry, a Flux Operator ResourceSet and a kind strata does not read.
// An object that does not decode keeps its problem for registration.
func TestPredecode(t *testing.T) {
	root := t.TempDir()
	ks := func(name, path, extra string) string {
		return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: " + name + "\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: " + path + "\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n" + extra
	}
	files := map[string]string{
		"env/app.yaml":  ks("app", "./apps/app", ""),
		"env/self.yaml": ks("flux-system", "./env", ""),
		"env/bad.yaml":  ks("bad", "./apps/bad", "  suspend: sometimes\n"),
		"env/cm.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\ndata:\n  a: b\n",
		"env/s.yaml":    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  a: b\n",
		"env/ns.yaml":   "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n",
		"env/rs.yaml":   "apiVersion: fluxcd.controlplane.io/v1\nkind: ResourceSet\nmetadata:\n  name: rs\nspec:\n  resources: []\n",
	}
	for name, body := range files {
		testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), body)
	}
	l := newLoader(context.Background(), root, "env")
	objs, p := l.build("env", nil, l.rulesForRef(nil, nil), nil, "")
	if p != nil {
		t.Fatalf("build(env) = %v", p)
	}
	got := map[string]string{}
	for _, o := range objs {
		switch {
		case o.decoded == nil:
			got[o.File] = "map"
		case o.Object != nil:
			got[o.File] = "both"
		case o.decoded.p != nil:
			got[o.File] = "problem: " + o.decoded.p.Message
		default:
			got[o.File] = "decoded"
		}
	}
	want := map[string]string{
		"env/app.yaml":  "decoded",
		"env/self.yaml": "map",
		"env/bad.yaml":  "problem: invalid object: spec.suspend is a string, want a boolean",
		"env/cm.yaml":   "decoded",
		"env/s.yaml":    "map",
		"env/ns.yaml":   "map",
		"env/rs.yaml":   "map",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("build(env) objects, decoded as collected (-want +got):\n%s", diff)
	}
}

// TestPredecodeAsKept: a load that decodes the entry directory's objects
// as it collects them (predecode) is the load that keeps their maps, over
// the fidelity repositories and an entry directory that holds a Secret
// encrypted for the Kustomization that applies it.
// loadRepo is an environment to load two ways: entry under root.
type loadRepo struct{ name, root, entry string }

// sameLoadRepos are the environments that two ways of loading must load
// the same: the fidelity repositories, their encrypted files encrypted,
// and an entry directory holding an encrypted Secret; keys decrypt them.
func sameLoadRepos(t *testing.T) (decryption.Keys, []loadRepo) {
	t.Helper()
	noAgeKeys(t)
	key := sopstest.NewAgeKey(t)
	keys := decryption.Keys{AgeKeyFile: key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))}
	repos := []loadRepo{{"an encrypted Secret in the entry", entrySecretRepo(t, key), "clusters/dev"}}
	for _, r := range fidelityRepos {
		root := testkit.Copy(t, filepath.Join("..", "testdata", "fidelity", r.name))
		for _, f := range r.encrypted {
			sopstest.EncryptFile(t, filepath.Join(root, filepath.FromSlash(f)), sopstest.Recipients{Age: []string{key.Recipient}}, sopstest.KubernetesRegex)
		}
		repos = append(repos, loadRepo{r.name, root, r.entry})
	}
	return keys, repos
}

// TestGeneratingAsDecoded proves that what a build reads of a Flux
// Kustomization's spec, read from its map as it is decoded
// (kustomization.gen), is what it reads of the object decoded again from
// its JSON, as Flux's generator is given it (rawMap).
func TestGeneratingAsDecoded(t *testing.T) {
	keys, repos := sameLoadRepos(t)
	set := 0
	for _, r := range repos {
		t.Run(r.name, func(t *testing.T) {
			ctx := keepRendered(decryption.WithKeys(context.Background(), keys))
			l, err := read(ctx, filepath.Join(r.root, r.entry))
			if err != nil {
				t.Fatalf("read(%s) = %v", r.entry, err)
			}
			for _, k := range l.kustomizations {
				if k.rawJSON == nil {
					continue
				}
				want := generatingOf(k.rendered.rawMap())
				if diff := cmp.Diff(want, k.gen, cmp.AllowUnexported(generating{}, plainKust{}), cmpopts.EquateComparable(resid.Gvk{})); diff != "" {
					t.Errorf("Kustomization %s: generating as decoded differs from its JSON's (-JSON +decoded):\n%s", k.ref(), diff)
				}
				if k.gen != nil {
					set++
				}
			}
		})
	}
	if set == 0 {
		t.Errorf("no Kustomization of %d repositories sets what a build reads of its spec, want some", len(repos))
	}
}

func TestPredecodeAsKept(t *testing.T) {
	keys, repos := sameLoadRepos(t)
	for _, r := range repos {
		t.Run(r.name, func(t *testing.T) {
			ctx := decryption.WithKeys(context.Background(), keys)
			load := func(ctx context.Context) (*environment.Environment, diag.Problems) {
				l, err := read(ctx, filepath.Join(r.root, r.entry))
				if err != nil {
					t.Fatalf("read(%s) = %v", r.entry, err)
				}
				return l.env, l.sortedProblems()
			}
			gotEnv, gotProblems := load(ctx)
			wantEnv, wantProblems := load(keepRendered(ctx))
			if diff := cmp.Diff(wantEnv, gotEnv); diff != "" {
				t.Errorf("read(%s) decoding the entry as collected: environment (-kept +decoded):\n%s", r.entry, diff)
			}
			if diff := cmp.Diff(wantProblems, gotProblems); diff != "" {
				t.Errorf("read(%s) decoding the entry as collected: problems (-kept +decoded):\n%s", r.entry, diff)
			}
		})
	}
}

// TestRelPath: a path under the root comes back relative to it,
// slash-separated, in a string of its own (not the tail of the absolute
// path, which it would keep whole); one outside comes back as given.
func TestRelPath(t *testing.T) {
	root := filepath.FromSlash("/repo/checkout")
	l := &loader{root: root}
	tests := []struct {
		abs, want string
	}{
		{abs: filepath.Join(root, "flux-apps", "db", "terraform.yaml"), want: "flux-apps/db/terraform.yaml"},
		{abs: root, want: "."},
		{abs: filepath.FromSlash("/elsewhere/x.yaml"), want: "../../elsewhere/x.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := l.relPath(tt.abs)
			if got != tt.want {
				t.Fatalf("relPath(%q) = %q, want %q", tt.abs, got, tt.want)
			}
			start := uintptr(unsafe.Pointer(unsafe.StringData(tt.abs)))
			if at := uintptr(unsafe.Pointer(unsafe.StringData(got))); len(got) > 0 && at >= start && at < start+uintptr(len(tt.abs)) {
				t.Errorf("relPath(%q) = %q, a part of the absolute path, want a string of its own", tt.abs, got)
			}
		})
	}
}
