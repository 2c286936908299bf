package flux

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fluxcd/pkg/kustomize"
	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The three repositories of ../testdata/fidelity and their entry points.
var fidelityRepos = []struct {
	name  string
	entry string
	// kustomizations are the Flux Kustomizations strata must follow.
	kustomizations []string
	stacks         []string
	// vars are the variables of one stack, as rendered.
	vars map[string]map[string]any
	// values are the spec.values templates of the stacks that have one.
	values map[string]string
	// encrypted are the Secrets the test encrypts with sops before it
	// loads the repository.
	encrypted []string
}{
	{
		name: "seed", entry: "environments/acme/dev",
		kustomizations: []string{"app", "network"}, stacks: []string{"app", "network"},
		vars: map[string]map[string]any{"network": {"region": "eu-central-1", "environment": "dev"}, "app": {"name": "app-dev"}},
	},
	{
		name: "bootstrap", entry: "clusters/dev",
		kustomizations: []string{"flux-system", "infrastructure", "secrets"}, stacks: []string{"app", "dns", "edge", "network"},
		vars: map[string]map[string]any{"network": {"region": "eu-west-1", "cidr": "10.20.0.0/16"}, "app": {"environment": "dev", "api_token": "token-from-sops"}, "dns": nil, "edge": {"environment": "dev"}},
		// Flux's $${ escape leaves the Tofu Controller's template.
		values:    map[string]string{"dns": `{"cidr":"${{ .net.cidr }}","vpc":"${{ .net.vpc_id }}","zone":"dev.example"}`},
		encrypted: []string{"secrets/dev/credentials.yaml"},
	},
	{
		name: "monorepo", entry: "clusters/prod",
		kustomizations: []string{"apps"}, stacks: []string{"app"},
		vars: map[string]map[string]any{"app": {"size": "large", "replicas": "1", "owner": "platform-team"}},
	},
}

// objectKey names an object for sorting and messages.
func objectKey(o map[string]any) string {
	u := unstructured.Unstructured{Object: o}
	return u.GetAPIVersion() + "/" + u.GetKind() + "/" + u.GetNamespace() + "/" + u.GetName()
}

// libraryBuild builds a Flux Kustomization's path the way
// kustomize-controller does, with fluxcd/pkg/kustomize alone: the generator
// writes the kustomization file into the (copied) repository, SecureBuild
// builds it, and SubstituteVariables substitutes each object with vars.
func libraryBuild(t *testing.T, root string, k *kustomization, vars map[string]string) []map[string]any {
	t.Helper()
	dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(k.Spec.Path, "./")))
	gen := kustomize.NewGenerator(root, unstructured.Unstructured{Object: k.raw})
	action, err := gen.WriteFile(dir, kustomize.WithSaveOriginalKustomization())
	if err != nil {
		t.Fatalf("Generator.WriteFile(%s) = %v", dir, err)
	}
	defer func() {
		if err := kustomize.CleanDirectory(dir, action); err != nil {
			t.Errorf("CleanDirectory(%s) = %v", dir, err)
		}
	}()
	rm, err := kustomize.SecureBuild(root, dir, false)
	if err != nil {
		t.Fatalf("SecureBuild(%s) = %v", dir, err)
	}
	sub := map[string]any{}
	for n, v := range vars {
		sub[n] = v
	}
	spec := unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"postBuild": map[string]any{"substitute": sub}}}}
	var out []map[string]any
	for _, r := range rm.Resources() {
		if k.Spec.Decryption != nil && k.Spec.Decryption.Provider == "sops" && !r.Field("sops").IsNilOrEmpty() {
			// kustomize-controller's DecryptResource: the object as
			// JSON, decrypted, read back.
			j, err := r.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if err := r.UnmarshalJSON(sopstest.Decrypt(t, j, "json")); err != nil {
				t.Fatalf("decrypted %s: %v", r.CurId(), err)
			}
		}
		if k.Spec.PostBuild != nil && len(vars) > 0 {
			s, err := kustomize.SubstituteVariables(context.Background(), nil, spec, r,
				kustomize.SubstituteWithDryRun(true), kustomize.SubstituteWithStrict(true))
			if err != nil {
				t.Fatalf("SubstituteVariables(%s) = %v", r.CurId(), err)
			}
			if s != nil {
				r = s
			}
		}
		m, err := r.Map()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return objectKey(out[i]) < objectKey(out[j]) })
	return out
}

// fluxVars collects a Kustomization's postBuild variables the way
// kustomize-controller's LoadVariables does, from the ConfigMaps and
// Secrets rendered anywhere in the repository: substituteFrom in order,
// then substitute.
func fluxVars(l *loader, k *kustomization) map[string]string {
	vars := map[string]string{}
	if k.Spec.PostBuild == nil {
		return vars
	}
	for _, ref := range k.Spec.PostBuild.SubstituteFrom {
		var data map[string]string
		if cm := l.configMap(k.Group, ref.Name); cm != nil && ref.Kind == kindConfigMap {
			data = cm.Data
		}
		if sec := l.secret(k.Group, ref.Name); sec != nil && ref.Kind == kindSecret {
			data = sec.Data
		}
		for n, v := range data {
			vars[n] = strings.ReplaceAll(v, "\n", "")
		}
	}
	for n, v := range k.Spec.PostBuild.Substitute {
		vars[n] = strings.ReplaceAll(v, "\n", "")
	}
	return vars
}

// TestFidelityRepositories loads each repository of ../testdata/fidelity
// and compares every object strata rendered for each Flux Kustomization,
// one by one, with what Flux's library renders for the same Kustomization.
func TestFidelityRepositories(t *testing.T) {
	for _, repo := range fidelityRepos {
		t.Run(repo.name, func(t *testing.T) {
			root := testkit.Copy(t, filepath.Join("..", "testdata", "fidelity", repo.name))
			if len(repo.encrypted) > 0 {
				// strata and the reference decrypt with the key of
				// $SOPS_AGE_KEY_FILE.
				noAgeKeys(t)
				key := sopstest.NewAgeKey(t)
				t.Setenv(decryption.EnvAgeKeyFile, key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
				for _, f := range repo.encrypted {
					sopstest.EncryptFile(t, filepath.Join(root, filepath.FromSlash(f)), sopstest.Recipients{Age: []string{key.Recipient}}, sopstest.KubernetesRegex)
				}
			}
			l, err := read(keepRendered(context.Background()), filepath.Join(root, repo.entry))
			if err != nil {
				t.Fatalf("read(%s) = %v", repo.entry, err)
			}
			if ps := l.sortedProblems(); len(ps) > 0 {
				t.Fatalf("Load(%s) problems:\n%v", repo.entry, ps)
			}
			var names, stacks []string
			for _, k := range l.sortedKustomizations() {
				names = append(names, k.Name())
			}
			vars := map[string]map[string]any{}
			var values map[string]string
			for _, s := range l.env.Stacks {
				stacks = append(stacks, s.Name)
				vars[s.Name] = s.Vars
				if s.Values != "" {
					if values == nil {
						values = map[string]string{}
					}
					values[s.Name] = s.Values
				}
			}
			if diff := cmp.Diff(repo.values, values); diff != "" {
				t.Errorf("Load(%s) stack values mismatch (-want +got):\n%s", repo.entry, diff)
			}
			if diff := cmp.Diff(repo.vars, vars); diff != "" {
				t.Errorf("Load(%s) stack variables mismatch (-want +got):\n%s", repo.entry, diff)
			}
			if diff := cmp.Diff([]any{repo.kustomizations, repo.stacks}, []any{names, stacks}); diff != "" {
				t.Errorf("Load(%s) Kustomizations and stacks mismatch (-want +got):\n%s", repo.entry, diff)
			}
			for _, k := range l.sortedKustomizations() {
				got, ok := l.rendered[k.Name()]
				if !ok {
					continue // the entry's own Kustomization, read once
				}
				want := libraryBuild(t, root, k, fluxVars(l, k))
				gotObjs := make([]map[string]any, 0, len(got))
				for _, o := range got {
					gotObjs = append(gotObjs, o.Object)
				}
				sort.Slice(gotObjs, func(i, j int) bool { return objectKey(gotObjs[i]) < objectKey(gotObjs[j]) })
				if len(gotObjs) != len(want) || len(want) == 0 {
					t.Errorf("Kustomization %s: strata rendered %d objects, the library %d", k.Name(), len(gotObjs), len(want))
				}
				for i := range min(len(gotObjs), len(want)) {
					t.Run(fmt.Sprintf("%s/%s", k.Name(), objectKey(want[i])), func(t *testing.T) {
						if diff := cmp.Diff(want[i], gotObjs[i]); diff != "" {
							t.Errorf("Kustomization %s object %s mismatch (-library +strata):\n%s", k.Name(), objectKey(want[i]), diff)
						}
					})
				}
			}
		})
	}
}
