package flux

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/recovered"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// validEnvironment is the model of testdata/valid.
func validEnvironment(root string) *environment.Environment {
	db := environment.Source{
		Kind:   environment.SourceOCIRepository,
		Name:   "db-iac",
		File:   "flux-apps/apps/db/source.yaml",
		URL:    "oci://registry.example/iac/db",
		Semver: "~> 2.0.0",
	}
	settings := environment.DefaultSettings(root)
	settings.State.Region = "eu-central-1"
	settings.Contracts.Region = "eu-central-1"
	return &environment.Environment{
		Root:     root,
		Settings: settings,
		Dir:      "environments/acme/stage",
		Client:   "acme",
		Name:     "stage",
		Class:    environment.ClassNonProd,
		Init: map[string]string{
			"clientId":         "acme",
			"domain":           "stage.acme.example",
			"environment":      "stage",
			"environmentClass": "non-prod",
			"region":           "eu-central-1",
		},
		Stacks: []*environment.Stack{
			{
				Name:              "db",
				Namespace:         "flux-system",
				File:              "flux-apps/apps/db/terraform.yaml",
				Group:             "apps",
				Kustomization:     "db",
				KustomizationFile: "environments/acme/stage/apps/db.yaml",
				Layer:             environment.LayerServices,
				Source:            db,
				Path:              "stacks/db",
				Vars: map[string]any{
					"engine": "postgres",
					"size":   float64(20),
					"tags":   map[string]any{"client": "acme", "domain": "stage.acme.example"},
					"zones":  []any{"a", "b"},
					"tier":   "gold",
				},
				DependsOn:     []string{"vpc"},
				BackendConfig: "backend \"s3\" {\n  key = \"acme/stage/db.tfstate\"\n  # not substituted: ${region}\n}\n",
				Produces:      "database",
				Consumes:      []environment.Input{{Contract: "vpc", As: "vpc"}},
				Version:       "~> 2.0.0",
				VersionKey:    "version_db_tf",
			},
			{
				Name:              "db-migrate",
				Namespace:         "flux-system",
				File:              "flux-apps/apps/db/terraform.yaml",
				Group:             "apps",
				Kustomization:     "db",
				KustomizationFile: "environments/acme/stage/apps/db.yaml",
				Layer:             environment.LayerServices,
				Source:            db,
				Path:              "stacks/migrate",
				DependsOn:         []string{"db", "vpc"},
				Consumes:          []environment.Input{{Contract: "database", As: "db"}, {Contract: "vpc", As: "net"}},
				Version:           "~ 0.1.0-0",
				VersionKey:        "version_db_migrate_tf",
			},
			{
				Name:              "vpc",
				Namespace:         "flux-system",
				File:              "flux-apps/base/vpc/terraform.yaml",
				Group:             "base",
				Kustomization:     "vpc",
				KustomizationFile: "environments/acme/stage/base/vpc.yaml",
				Layer:             environment.LayerNetwork,
				Source:            environment.Source{Kind: environment.SourceGitRepository, Name: environment.DefaultGitSource},
				Path:              "flux-apps/base/vpc/tf",
				Vars: map[string]any{
					"name":   "acme-stage",
					"cidr":   "10.1.0.0/16",
					"region": "eu-west-1",
					"zones":  float64(3),
				},
				Produces:        "vpc",
				ProducesOutputs: []string{"vpc_id", "subnet_ids"},
				ApprovePlan:     "auto",
				Interval:        30 * time.Minute,
				Version:         "1.4.0",
				VersionKey:      "version_vpc_tf",
			},
		},
		Skipped: map[string]int{"Namespace": 1},
		Notes:   []string{"not in a git work tree: the repository root is taken to be " + root},
	}
}

func TestLoadValid(t *testing.T) {
	root := testkit.Copy(t, "testdata/valid")
	tmp := testkit.Copy(t, "testdata/valid")
	t.Chdir(root)
	tests := []struct {
		name string
		dir  string
		root string
	}{
		{name: "relative", dir: "environments/acme/stage", root: root},
		{name: "absolute", dir: filepath.Join(root, "environments/acme/stage"), root: root},
		{name: "trailing slash", dir: "environments/acme/stage/", root: root},
		{name: "copy elsewhere", dir: filepath.Join(tmp, "environments", "acme", "stage"), root: tmp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Load(context.Background(), tt.dir)
			if err != nil {
				t.Fatalf("Load(%q) = %v, want no error", tt.dir, err)
			}
			if diff := cmp.Diff(validEnvironment(tt.root), got); diff != "" {
				t.Errorf("Load(%q) mismatch (-want +got):\n%s", tt.dir, diff)
			}
		})
	}
}

func TestLoadFromRepositoryRoot(t *testing.T) {
	t.Chdir(testkit.Copy(t, "testdata/valid"))
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	const dir = "environments/acme/stage"
	got, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatalf("Load(%q) = %v, want no error", dir, err)
	}
	if diff := cmp.Diff(validEnvironment(root), got); diff != "" {
		t.Errorf("Load(%q) mismatch (-want +got):\n%s", dir, diff)
	}
}

func TestLoadErrors(t *testing.T) {
	tmp := t.TempDir()
	for _, d := range []string{"environments/acme/stage/group", "elsewhere/acme/stage"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, "environments/acme/file.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		dir  string
		want *regexp.Regexp
		is   error
	}{
		{
			name: "missing directory",
			dir:  filepath.Join(tmp, "environments/acme/nope"),
			want: regexp.MustCompile(`^load environment .*/environments/acme/nope: stat .*: no such file or directory$`),
			is:   fs.ErrNotExist,
		},
		{
			name: "not a directory",
			dir:  filepath.Join(tmp, "environments/acme/file.yaml"),
			want: regexp.MustCompile(`^load environment .*/file.yaml: .*/file.yaml is not a directory: name the directory of the environment`),
		},
		{
			name: "cancelled",
			ctx:  canceled,
			dir:  filepath.Join(testkit.Copy(t, "testdata/valid"), "environments/acme/stage"),
			want: regexp.MustCompile(`^load environment environments/acme/stage: context canceled$`),
			is:   context.Canceled,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			env, err := Load(ctx, tt.dir)
			if err == nil || !tt.want.MatchString(err.Error()) || env != nil {
				t.Fatalf("Load(%q) = %v, %v, want nil, an error matching %v", tt.dir, env, err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Load(%q) = %v, want an error that is %v", tt.dir, err, tt.is)
			}
			var ps diag.Problems
			if errors.As(err, &ps) {
				t.Errorf("Load(%q) = %v, want an error that is not problems", tt.dir, err)
			}
		})
	}
}

func TestLoadExample(t *testing.T) {
	type stack struct {
		Layer    environment.Layer
		Produces string
		Consumes []environment.Input
		Depends  []string
	}
	want := map[string]stack{
		"account": {Layer: environment.LayerAccount, Produces: "account"},
		"network": {Layer: environment.LayerNetwork, Produces: "network", Consumes: []environment.Input{{Contract: "account", As: "account"}}, Depends: []string{"account"}},
		"cluster": {Layer: environment.LayerCluster, Produces: "cluster", Consumes: []environment.Input{{Contract: "network", As: "network"}}, Depends: []string{"network"}},
		"api":     {Layer: environment.LayerServices, Produces: "api", Consumes: []environment.Input{{Contract: "cluster", As: "cluster"}}, Depends: []string{"cluster"}},
		"worker":  {Layer: environment.LayerServices, Produces: "worker", Consumes: []environment.Input{{Contract: "cluster", As: "cluster"}}, Depends: []string{"cluster"}},
	}
	tests := []struct {
		dir, name, class, domain string
		ranges                   bool
		// oci names the stacks whose code comes from an OCI artefact.
		oci map[string]bool
	}{
		{dir: "../../environments/demo/dev", name: "dev", class: environment.ClassNonProd, domain: "dev.demo.example"},
		{dir: "../../environments/demo/stage", name: "stage", class: environment.ClassNonProd, domain: "stage.demo.example", ranges: true,
			oci: map[string]bool{"api": true, "worker": true}},
		{dir: "../../environments/demo/prod", name: "prod", class: environment.ClassProd, domain: "demo.example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, err := Load(context.Background(), tt.dir)
			if err != nil {
				t.Fatalf("Load(%q) = %v, want no error", tt.dir, err)
			}
			if env.Client != "demo" || env.Name != tt.name || env.Class != tt.class || env.Init["domain"] != tt.domain || env.Init["region"] != "eu-central-1" {
				t.Errorf("Load(%q) = %s/%s %s %v, want demo/%s %s domain %s", tt.dir, env.Client, env.Name, env.Class, env.Init, tt.name, tt.class, tt.domain)
			}
			got := map[string]stack{}
			sawRange := false
			for _, s := range env.Stacks {
				got[s.Name] = stack{Layer: s.Layer, Produces: s.Produces, Consumes: s.Consumes, Depends: s.DependsOn}
				if s.ApprovePlan != "auto" || s.BackendConfig != "" {
					t.Errorf("Load(%q) stack %s = approvePlan %q, backend %q, want auto, none", tt.dir, s.Name, s.ApprovePlan, s.BackendConfig)
				}
				if tt.oci[s.Name] {
					want := environment.Source{Kind: environment.SourceOCIRepository, Name: s.Name + "-iac", File: "flux-apps/service-artefacts/" + s.Name + "/ocirepository.yaml",
						URL: "oci://127.0.0.1:5000/iac/" + s.Name, Semver: s.Version, Insecure: true}
					if diff := cmp.Diff(want, s.Source); diff != "" {
						t.Errorf("Load(%q) stack %s source mismatch (-want +got):\n%s", tt.dir, s.Name, diff)
					}
				} else {
					if s.Source != (environment.Source{Kind: environment.SourceGitRepository, Name: environment.DefaultGitSource}) {
						t.Errorf("Load(%q) stack %s source = %v, want flux-system", tt.dir, s.Name, s.Source)
					}
					if fi, err := os.Stat(filepath.Join(env.Root, s.Path, "main.tf")); err != nil || fi.IsDir() {
						t.Errorf("Load(%q) stack %s path %s has no main.tf: %v", tt.dir, s.Name, s.Path, err)
					}
				}
				if s.VersionKey != VersionKey(s.Name) || s.Version == "" {
					t.Errorf("Load(%q) stack %s version = %q (%s), want one from %s", tt.dir, s.Name, s.Version, s.VersionKey, VersionKey(s.Name))
				}
				sawRange = sawRange || !ExactVersion(s.Version)
				for k, v := range s.Vars {
					if str, ok := v.(string); ok && strings.Contains(str, "$") {
						t.Errorf("Load(%q) stack %s var %s = %q, want it substituted", tt.dir, s.Name, k, str)
					}
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Load(%q) stacks mismatch (-want +got):\n%s", tt.dir, diff)
			}
			if sawRange != tt.ranges {
				t.Errorf("Load(%q) uses version ranges: %v, want %v", tt.dir, sawRange, tt.ranges)
			}
		})
	}
}

// TestExampleFluxAppsAreDRY checks that flux-apps/ of the example holds no
// environment's values: they come only from ${var} substitution.
func TestExampleFluxAppsAreDRY(t *testing.T) {
	var values []string
	for _, dir := range []string{"../../environments/demo/dev", "../../environments/demo/stage", "../../environments/demo/prod"} {
		env, err := Load(context.Background(), dir)
		if err != nil {
			t.Fatalf("Load(%q) = %v, want no error", dir, err)
		}
		for _, v := range env.Init {
			values = append(values, v)
		}
	}
	err := filepath.WalkDir("../../flux-apps", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == "../../flux-apps/strata" {
			// strata's own manifests (its CRD, Deployment, RBAC), no app.
			return fs.SkipDir
		}
		if err != nil || d.IsDir() || !isYAML(p) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// strata's own annotations are no environment's value.
		b = bytes.ReplaceAll(b, []byte("strata.dev/"), nil)
		for _, v := range values {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(v) + `\b`).Match(b) {
				t.Errorf("%s holds the environment value %q; use a ${var} instead", p, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestLoadWithoutInit(t *testing.T) {
	for _, fixture := range []string{"missing_init", "init_without_configmap"} {
		t.Run(fixture, func(t *testing.T) {
			root := testkit.Copy(t, filepath.Join("testdata", fixture))
			dir := filepath.Join(root, "environments/acme/stage")
			env, err := Load(context.Background(), dir)
			if err != nil {
				t.Fatalf("Load(%q) = %v, want no error: the init ConfigMap is optional", dir, err)
			}
			got := []any{env.Client, env.Name, env.Class, len(env.Init), len(env.Stacks)}
			if diff := cmp.Diff([]any{"acme", "stage", environment.ClassNonProd, 0, 1}, got); diff != "" {
				t.Errorf("Load(%q) client, name, class, init keys, stacks mismatch (-want +got):\n%s", dir, diff)
			}
			want := `no ConfigMap init in environments/acme/stage/: client "acme" and environment "stage" are named after the directories, and the environment class is non-prod`
			if !slices.Contains(env.Notes, want) {
				t.Errorf("Load(%q) notes = %q, want %q among them", dir, env.Notes, want)
			}
		})
	}
}

// TestKustomizationsByNamespace: Flux knows a Kustomization by its
// namespace and name. Two of one name in two namespaces are two, each
// with its stacks (the second known as namespace/name), and a dependsOn
// without a namespace names the one in its own namespace.
func TestKustomizationsByNamespace(t *testing.T) {
	ks := func(name, ns, path, dependsOn string) string {
		s := "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: " + name + "\n  namespace: " + ns +
			"\nspec:\n  interval: 1h\n  path: " + path + "\n  prune: true\n  sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n"
		if dependsOn != "" {
			s += "  dependsOn: [{name: " + dependsOn + "}]\n"
		}
		return s
	}
	root := writeDevRepo(t, map[string]string{
		"clusters/dev/a.yaml":        ks("app", "alpha", "./apps/a", ""),
		"clusters/dev/b.yaml":        ks("app", "beta", "./apps/b", ""),
		"clusters/dev/consumer.yaml": ks("consumer", "beta", "./apps/c", "app"),
		"apps/a/terraform.yaml":      terraformObject("ta"),
		"apps/b/terraform.yaml":      terraformObject("tb"),
		"apps/c/terraform.yaml":      terraformObject("tc"),
	})
	env, err := Load(context.Background(), filepath.Join(root, "clusters", "dev"))
	if err != nil {
		t.Fatalf("Load(clusters/dev) = %v", err)
	}
	var got []string
	for _, s := range env.Stacks {
		got = append(got, s.Name+" "+s.Kustomization+" "+strings.Join(s.DependsOn, ","))
	}
	want := []string{"ta app ", "tb beta/app ", "tc consumer tb"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load(clusters/dev) stacks mismatch (-want +got):\n%s", diff)
	}
}

// TestTerraformsByNamespace: Flux and the Tofu Controller know a
// Terraform object by its namespace and name. Two of one name in two
// namespaces are two stacks, each named namespace_name; a name no other
// namespace uses stays as it is; a spec.dependsOn entry, and a Secret a
// stack writes or reads, are of the object's own namespace.
func TestTerraformsByNamespace(t *testing.T) {
	tf := func(name, ns, spec string) string {
		meta := ""
		if pin, ok := strings.CutPrefix(ns, "pinned:"); ok {
			ns, meta = "team-c", "\n  annotations: {strata.dev/stack: "+pin+"}"
		}
		return "---\napiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: " + name + "\n  namespace: " + ns + meta +
			"\nspec:\n  interval: 10m\n  path: ./stacks\n  sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n" + spec
	}
	root := writeDevRepo(t, map[string]string{
		"clusters/dev/apps.yaml": fuzzKustomization("apps", "./apps"),
		"apps/terraform.yaml": tf("same", "team-a", "  writeOutputsToSecret: {name: outputs}\n") +
			tf("same", "team-b", "  writeOutputsToSecret: {name: outputs}\n") +
			tf("reader", "team-a", "  dependsOn: [{name: same}]\n  readInputsFromSecrets: [{name: outputs, as: up}]\n") +
			tf("solo", "team-b", "  dependsOn: [{name: same}]\n  varsFrom: [{kind: Secret, name: outputs}]\n") +
			tf("same", "pinned:same", "") +
			tf("after", "team-c", "  dependsOn: [{name: same}]\n"),
	})
	env, err := Load(context.Background(), filepath.Join(root, "clusters", "dev"))
	if err != nil {
		t.Fatalf("Load(clusters/dev) = %v", err)
	}
	type stack struct {
		Name, Namespace, Produces string
		DependsOn, Reads          []string
	}
	var got []stack
	for _, s := range env.Stacks {
		st := stack{Name: s.Name, Namespace: s.Namespace, Produces: s.Produces, DependsOn: s.DependsOn}
		for _, in := range s.Consumes {
			st.Reads = append(st.Reads, in.Contract)
		}
		for _, cv := range s.ContractVars {
			st.Reads = append(st.Reads, cv.Contract)
		}
		got = append(got, st)
	}
	want := []stack{
		{Name: "after", Namespace: "team-c", DependsOn: []string{"same"}},
		{Name: "reader", Namespace: "team-a", DependsOn: []string{"team-a_same"}, Reads: []string{"team-a_outputs"}},
		{Name: "same", Namespace: "team-c"},
		{Name: "solo", Namespace: "team-b", DependsOn: []string{"team-b_same"}, Reads: []string{"team-b_outputs"}},
		{Name: "team-a_same", Namespace: "team-a", Produces: "team-a_outputs"},
		{Name: "team-b_same", Namespace: "team-b", Produces: "team-b_outputs"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load(clusters/dev) stacks mismatch (-want +got):\n%s", diff)
	}
	if len(env.Warnings) > 0 || len(env.Blocked) > 0 {
		t.Errorf("Load(clusters/dev) warnings = %v, blocked = %v, want none", env.Warnings, env.Blocked)
	}
	for _, note := range []string{
		"Terraform objects named same are in namespaces team-a, team-b, team-c: their stacks are team-a_same, team-b_same, same (annotation strata.dev/stack names one otherwise)",
		"stacks of namespaces team-a, team-b write a Secret outputs: their contracts are team-a_outputs, team-b_outputs, the names readers outside the environment (External Secrets) read (annotation strata.dev/contract names one otherwise)",
	} {
		if !slices.Contains(env.Notes, note) {
			t.Errorf("Load(clusters/dev) notes = %q, want %q among them", env.Notes, note)
		}
	}

	bad := writeDevRepo(t, map[string]string{
		"clusters/dev/apps.yaml": fuzzKustomization("apps", "./apps"),
		"apps/terraform.yaml":    tf("same", "pinned:Not_A/Name", ""),
	})
	want2 := `annotation strata.dev/stack is "Not_A/Name", which cannot name a stack`
	benv, err := Load(context.Background(), filepath.Join(bad, "clusters", "dev"))
	if err != nil || len(benv.Blocked) != 1 || !strings.Contains(benv.Blocked[0].String(), want2) {
		t.Errorf("Load(annotation Not_A/Name) = %v, blocked %v, want the stack blocked: %q", err, benv.Blocked, want2)
	}
}

// panickingInputs are inputs whose every read panics, as a bug in what
// a load calls would.
type panickingInputs struct{}

func (panickingInputs) Get(context.Context, string, string, string) (map[string]any, string, error) {
	panic("inputs: boom")
}

func (panickingInputs) Identity() string { return "panics" }

// TestLoadPanic checks that a panic in a load is that load's error, with
// the stack, and not the caller's crash.
func TestLoadPanic(t *testing.T) {
	root := writeDevRepo(t, map[string]string{
		"clusters/dev/app.yaml":   fuzzKustomization("app", "./apps/app") + "  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: cluster-settings\n",
		"apps/app/terraform.yaml": terraformObject("app"),
	})
	dir := filepath.Join(root, "clusters", "dev")
	for _, load := range []struct {
		name string
		fn   func(context.Context, string) (*environment.Environment, error)
	}{
		{"Load", Load},
		{"LoadCached", func(ctx context.Context, dir string) (*environment.Environment, error) {
			return LoadCached(ctx, dir, t.TempDir())
		}},
	} {
		t.Run(load.name, func(t *testing.T) {
			env, err := load.fn(WithOptions(context.Background(), Options{Inputs: panickingInputs{}}), dir)
			want := "load environment clusters/dev: panicked: inputs: boom (a bug in strata: the log has its stack)"
			if env != nil || err == nil || err.Error() != want {
				t.Fatalf("%s(%q) = %v, %v, want nil, %q", load.name, dir, env, err, want)
			}
			if stack := recovered.Stack(err); !strings.Contains(string(stack), "panickingInputs.Get") {
				t.Errorf("recovered.Stack(%s(%q)) = %s, want the stack where it panicked", load.name, dir, stack)
			}
		})
	}
}
