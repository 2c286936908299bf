package flux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// The files and objects of the problem fixtures.
const (
	envDir   = "environments/acme/stage"
	initFile = envDir + "/init.yaml"
	appFile  = envDir + "/apps/app.yaml"
	appTF    = "flux-apps/app/terraform.yaml"
	appK     = "Kustomization/app"
	appT     = "Terraform/app"
	initCM   = "ConfigMap/init"
)

// loadProblems loads the environment of a fixture repository and returns
// its problems.
func loadProblems(t *testing.T, root string) diag.Problems {
	t.Helper()
	return loadProblemsWith(t, root, Options{})
}

// loadProblemsWith is loadProblems with the load's options.
func loadProblemsWith(t *testing.T, root string, opts Options) diag.Problems {
	t.Helper()
	dir := filepath.Join(root, envDir)
	env, err := Load(WithOptions(context.Background(), opts), dir)
	var ps diag.Problems
	if err != nil && !errors.As(err, &ps) {
		t.Fatalf("Load(%q) = %v, want problems", dir, err)
	}
	if err != nil && env == nil {
		t.Errorf("Load(%q) = nil, %v, want the partial environment with the problems", dir, err)
	}
	return untagged(environment.AllProblems(env, err))
}

// untagged drops what each problem holds back, which the tests of
// isolation check on their own, and returns nil for none.
func untagged(ps diag.Problems) diag.Problems {
	if len(ps) == 0 {
		return nil
	}
	for i := range ps {
		ps[i].Kustomization, ps[i].Stack = "", ""
	}
	ps.Sort()
	return slices.Compact(ps)
}

func TestLoadProblems(t *testing.T) {
	tests := []struct {
		fixture string
		want    diag.Problems
	}{
		{
			fixture: "malformed_yaml",
			want: diag.Problems{{
				File:    appFile,
				Message: "malformed YAML at line 17: mapping values are not allowed in this context",
				Fix:     "fix the YAML syntax at line 17 of " + appFile,
			}},
		},
		{
			fixture: "init_missing_keys",
			want: diag.Problems{
				{
					File:    initFile,
					Object:  initCM,
					Message: "data.clientId is missing",
					Fix:     `add clientId: "acme" to the data of ConfigMap init in ` + initFile,
				},
				{
					File:    initFile,
					Object:  initCM,
					Message: "data.environment is missing",
					Fix:     `add environment: "stage" to the data of ConfigMap init in ` + initFile,
				},
				{
					File:    initFile,
					Object:  initCM,
					Message: "data.environmentClass is missing",
					Fix:     `add environmentClass: "prod" or "non-prod" to the data of ConfigMap init in ` + initFile,
				},
			},
		},
		{
			fixture: "bad_environment_class",
			want: diag.Problems{{
				File:    initFile,
				Object:  initCM,
				Message: `data.environmentClass is "production"; it must be prod or non-prod`,
				Fix:     `set environmentClass to "prod" or "non-prod" in ` + initFile,
			}},
		},
		{
			fixture: "bad_max_runners",
			want: diag.Problems{{
				File:    initFile,
				Object:  initCM,
				Message: `data.maxRunners is "many"; it must be a whole number of tofu processes, at least 1`,
				Fix:     `set maxRunners to a number such as "10" in ` + initFile + `, or remove it`,
			}},
		},
		{
			fixture: "bad_state_backend",
			want: diag.Problems{
				{
					File:    initFile,
					Object:  initCM,
					Message: `data.contractPathStyle is "sometimes"; it must be true or false`,
					Fix:     `set contractPathStyle to "true" or "false" in ` + initFile + `, or remove it`,
				},
				{
					File:    initFile,
					Object:  initCM,
					Message: `data.providerMirror is "http://mirror.example:8443/"; tofu reaches a provider mirror only over https`,
					Fix:     `set providerMirror to the mirror's https URL, such as "https://mirror.example.com:8443/" in ` + initFile + `, or remove it`,
				},
				{
					File:    initFile,
					Object:  initCM,
					Message: "data.stateBackend is s3 but data.stateBucket is not set",
					Fix:     "set stateBucket to the bucket that holds the stacks' state in " + initFile + ", or set stateBackend to local",
				},
				{
					File:    initFile,
					Object:  initCM,
					Message: "data.stateBackend is s3 but neither data.stateRegion nor data.region is set",
					Fix:     "set stateRegion (or region) to the state bucket's AWS region in " + initFile,
				},
			},
		},
		{
			fixture: "bad_contract_store",
			want: diag.Problems{
				{
					File:    initFile,
					Object:  initCM,
					Message: `data.contractPrefix is "/configuration/../x": segment ".." is not allowed`,
					Fix:     `set contractPrefix to a path such as "/configuration" in ` + initFile + `, or remove it`,
				},
				{
					File:    initFile,
					Object:  initCM,
					Message: `data.contractStore is "vault"; it must be local, ssm or s3`,
					Fix:     `set contractStore to "local" (files under the state directory), "ssm" or "s3" in ` + initFile + `, or remove it`,
				},
				{
					File:    initFile,
					Object:  initCM,
					Message: `data.stateBackend is "gcs"; it must be local or s3`,
					Fix:     `set stateBackend to "local" (files under the state directory) or "s3" (with stateBucket and stateRegion) in ` + initFile + `, or remove it`,
				},
			},
		},
		{
			fixture: "kustomization_path_unknown",
			want: diag.Problems{{
				File:    appFile,
				Object:  appK,
				Message: `spec.path "./flux-apps/nothing-here" is not a directory of this repository`,
				Fix:     "point spec.path at an existing directory relative to the repository root, e.g. ./flux-apps/<kind>/<service>",
			}},
		},
		{
			fixture: "terraform_path_unknown",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.path "./flux-apps/app/missing" is not a directory of this repository`,
				Fix:     "point spec.path at the directory of the stack's OpenTofu code, relative to the repository root (e.g. ./flux-apps/app/terraform)",
			}},
		},
		{
			fixture: "terraform_path_without_tf",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.path "./flux-apps" holds no .tf, .tf.json, .tofu or .tofu.json files`,
				Fix:     "point spec.path at the directory of the stack's OpenTofu code, relative to the repository root (e.g. ./flux-apps/app/terraform)",
			}},
		},
		{
			fixture: "kustomization_depends_unknown",
			want: diag.Problems{{
				File:    appFile,
				Object:  appK,
				Message: `spec.dependsOn names Kustomization "ghost", which does not exist in this environment`,
				Fix:     "name one of the environment's Kustomizations (app) or remove the entry",
			}},
		},
		{
			fixture: "terraform_depends_unknown",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.dependsOn names Terraform "ghost", which does not exist in this environment`,
				Fix:     "name one of the environment's stacks (app) or remove the entry",
			}},
		},
		{
			fixture: "source_unknown",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "spec.sourceRef names OCIRepository/app-iac, which does not exist",
				Fix:     "define OCIRepository app-iac in flux-apps/app/ (next to the Terraform object) or correct spec.sourceRef.name",
			}},
		},
		{
			fixture: "source_other_git",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "spec.sourceRef names GitRepository/other-repo, which is neither this repository (flux-system, a GitRepository whose spec.url is one of the checkout's remotes, or a --self-source) nor a GitRepository of this environment",
				Fix:     "define GitRepository other-repo in flux-apps/app/ (next to the Terraform object), pass --self-source GitRepository/<namespace>/other-repo when it is this repository, or correct spec.sourceRef",
			}},
		},
		{
			fixture: "varsfrom_configmap_unknown",
			want:    diag.Problems{diag.MissingInput(appTF, appT, "spec.varsFrom[0]", kindConfigMap, DefaultNamespace, "app-settings")},
		},
		{
			fixture: "varsfrom_secret",
			want:    diag.Problems{withFix(diag.MissingInput(appTF, appT, "spec.varsFrom[0]", kindSecret, DefaultNamespace, "app-credentials"), "none yet")},
		},
		{
			fixture: "substitutefrom_unknown",
			want:    diag.Problems{diag.MissingInput(appFile, appK, "postBuild.substituteFrom", kindConfigMap, DefaultNamespace, "app-settings")},
		},
		{
			fixture: "contract_unknown",
			want:    diag.Problems{withFix(diag.MissingInput(appTF, appT, "spec.readInputsFromSecrets", kindSecret, DefaultNamespace, "ghost"), "none yet")},
		},
		{
			fixture: "layer_unknown",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `annotation strata.dev/layer is "platform", which is not a layer`,
				Fix:     "set annotation strata.dev/layer to one of: account, network, cluster, services",
			}},
		},
		{
			fixture: "force_unlock_yes",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.tfstate.forceUnlock is "yes" without spec.tfstate.lockIdentifier: strata releases only the lock a person names`,
				Fix:     "set spec.tfstate.lockIdentifier to the ID of the lock to release (the run log names it), or use auto to release a lock whose holder is provably dead",
			}},
		},
		{
			fixture: "read_contracts_bad",
			want: diag.Problems{
				{File: appTF, Object: appT, Message: `annotation strata.dev/read-contracts line "9lives: .*" names variable "9lives", which is not a valid variable name`,
					Fix: `write one "variable: regex" per line, e.g. "configuration: (account|network)"`},
				{File: appTF, Object: appT, Message: "annotation strata.dev/read-contracts line \"broken: (unclosed\" has a regular expression that does not compile: error parsing regexp: missing closing ): `^(?:(unclosed)$`",
					Fix: `write one "variable: regex" per line, e.g. "configuration: (account|network)"`},
				{File: appTF, Object: appT, Message: `annotation strata.dev/read-contracts line "no regex here" is not "variable: regex"`,
					Fix: `write one "variable: regex" per line, e.g. "configuration: (account|network)"`},
			},
		},
		{
			fixture: "duplicate_stack",
			want: diag.Problems{{
				File:    "flux-apps/other/terraform.yaml",
				Object:  appT,
				Message: `stack name "app" is used twice: here (via Kustomization other) and in flux-apps/app/terraform.yaml (via Kustomization app)`,
				Fix:     "rename one of the two Terraform objects (metadata.name), put one in another namespace, or drop one of the Kustomizations; Flux, the Tofu Controller and strata know a Terraform object by its namespace and name",
			}},
		},
		{
			fixture: "duplicate_contract",
			want: diag.Problems{{
				File:    "flux-apps/other/terraform.yaml",
				Object:  "Terraform/other",
				Message: `contract "shared" is also produced by stack "app" (flux-apps/app/terraform.yaml)`,
				Fix:     "give one of the two stacks another contract name (spec.writeOutputsToSecret.name or annotation strata.dev/contract); a contract has one producer",
			}},
		},
		{
			fixture: "missing_variable",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `variable "zone" is not defined`,
				Fix:     "add it to postBuild.substitute of Kustomization app in " + appFile + " or to ConfigMap init, or give a default with ${zone:=value}",
			}},
		},
		{
			fixture: "prod_version_range",
			want: diag.Problems{{
				File:    envDir + "/apps/_versions.yaml",
				Object:  "ConfigMap/service-versions",
				Message: `stack "app": version_app_tf is "~> 1.2.0", a range; a prod environment must pin an exact version`,
				Fix:     `pin version_app_tf to one exact version, e.g. "1.2.0", in ` + envDir + "/apps/_versions.yaml",
			}},
		},
		{
			fixture: "prod_source_range",
			want: diag.Problems{{
				File:    "flux-apps/app/source.yaml",
				Object:  "OCIRepository/app-iac",
				Message: `stack "app": ref.semver is ">= 1.0.0", a range; a prod environment must pin an exact version or a digest`,
				Fix:     `pin ref.semver to one exact version, e.g. "1.0.0", or set ref.digest in flux-apps/app/source.yaml`,
			}},
		},
		{
			fixture: "several",
			want: diag.Problems{
				{
					File:    appFile,
					Object:  appK,
					Message: `spec.dependsOn names Kustomization "ghost", which does not exist in this environment`,
					Fix:     "name one of the environment's Kustomizations (app) or remove the entry",
				},
				{
					File:    envDir + "/broken/broken.yaml",
					Message: "malformed YAML at line 4: found character that cannot start any token",
					Fix:     "fix the YAML syntax at line 4 of " + envDir + "/broken/broken.yaml",
				},
				{
					File:    initFile,
					Object:  initCM,
					Message: "data.clientId is missing",
					Fix:     `add clientId: "acme" to the data of ConfigMap init in ` + initFile,
				},
				{
					File:    appTF,
					Object:  appT,
					Message: `annotation strata.dev/layer is "platform", which is not a layer`,
					Fix:     "set annotation strata.dev/layer to one of: account, network, cluster, services",
				},
				{
					File:    appTF,
					Object:  appT,
					Message: `variable "zone" is not defined`,
					Fix:     "add it to postBuild.substitute of Kustomization app in " + appFile + " or to ConfigMap init (and list it in postBuild.substituteFrom), or give a default with ${zone:=value}",
				},
				withFix(diag.MissingInput(appTF, appT, "spec.readInputsFromSecrets", kindSecret, DefaultNamespace, "ghost"), "none yet"),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			dir := filepath.Join("testdata", tt.fixture, envDir)
			got := loadProblems(t, testkit.Copy(t, filepath.Join("testdata", tt.fixture)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load(%q) = %v, want %v; diff (-want +got):\n%s", dir, got, tt.want, diff)
			}
		})
	}
}

// baseRepo is a small valid repository: one Kustomization, one stack.
var baseRepo = map[string]string{
	initFile: `apiVersion: v1
kind: ConfigMap
metadata: {name: init}
data: {clientId: acme, environment: stage, environmentClass: non-prod, region: eu-central-1}
`,
	appFile: `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: app}
spec:
  path: ./flux-apps/app
  sourceRef: {kind: GitRepository, name: flux-system}
  postBuild:
    substituteFrom: [{kind: ConfigMap, name: init}]
`,
	appTF: `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata: {name: app}
spec:
  path: ./flux-apps/app
  sourceRef: {kind: GitRepository, name: flux-system}
  vars: [{name: region, value: "${region}"}]
`,
	"flux-apps/app/main.tf": "",
}

// writeRepo writes baseRepo with the changes (an empty value deletes a
// file) into a temporary directory and returns it.
func writeRepo(t *testing.T, changes map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{}
	for k, v := range baseRepo {
		files[k] = v
	}
	for k, v := range changes {
		if v == "" {
			delete(files, k)
			continue
		}
		files[k] = v
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestLoadMoreProblems(t *testing.T) {
	const (
		kzFile  = "flux-apps/app/kustomization.yaml"
		srcFile = "flux-apps/app/source.yaml"
		ociTF   = `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata: {name: app}
spec:
  path: ./stack
  sourceRef: {kind: OCIRepository, name: app-iac}
`
		versions = `apiVersion: v1
kind: ConfigMap
metadata: {name: service-versions}
data: {version_app_tf: "%s"}
`
	)
	prodInit := `apiVersion: v1
kind: ConfigMap
metadata: {name: init}
data: {clientId: acme, environment: stage, environmentClass: prod, region: eu-central-1}
`
	tests := []struct {
		name    string
		changes map[string]string
		want    diag.Problems
	}{
		{name: "base is valid"},
		{
			name: "kustomization.yaml names a missing file",
			changes: map[string]string{
				kzFile: "resources: [terraform.yaml, gone.yaml]\n",
			},
			want: diag.Problems{{
				File:    kzFile,
				Object:  appK,
				Message: `resources names "gone.yaml", which does not exist`,
				Fix:     "create flux-apps/app/gone.yaml or remove it from the resources of " + kzFile + " (Kustomization app in " + appFile + ")",
			}},
		},
		{
			name:    "kustomization.yaml names a remote resource that cannot be fetched",
			changes: map[string]string{kzFile: "resources: [terraform.yaml, 'http://127.0.0.1:1/x.yaml']\n"},
			want: diag.Problems{{
				File:    kzFile,
				Message: `cannot fetch the remote resource "http://127.0.0.1:1/x.yaml": Get "http://127.0.0.1:1/x.yaml": dial tcp 127.0.0.1:1: connect: connection refused`,
				Fix:     "check the URL and the network; or copy the resource into the repository and refer to it by a relative path in " + kzFile,
				Code:    diag.CodeUnreachable,
			}},
		},
		{
			name:    "kustomization.yaml names a remote git base",
			changes: map[string]string{kzFile: "resources: [terraform.yaml, 'https://git.example.invalid/org/repo//deploy?ref=v1']\n"},
			want: diag.Problems{{
				File:    kzFile,
				Message: `"https://git.example.invalid/org/repo//deploy?ref=v1" is a remote base, which strata does not fetch: a run must be reproducible from the checkout`,
				Fix:     "copy the resource into the repository and refer to it by a relative path in " + kzFile,
				Code:    diag.CodeUnreachable,
			}},
		},
		{
			name: "kustomization.yaml reads a sub-directory with a kustomization file",
			changes: map[string]string{
				kzFile:                                 "resources: [sub]\n",
				appTF:                                  "",
				"flux-apps/app/sub/kustomization.yaml": "resources: [tf.yaml]\n",
				"flux-apps/app/sub/tf.yaml":            baseRepo[appTF],
			},
		},
		{
			name: "kustomization.yaml reads a sub-directory without one (kustomize refuses it)",
			changes: map[string]string{
				kzFile:                      "resources: [sub]\n",
				appTF:                       "",
				"flux-apps/app/sub/tf.yaml": baseRepo[appTF],
			},
			want: diag.Problems{{
				File:    "flux-apps/app/sub",
				Object:  appK,
				Message: "flux-apps/app/sub/ is listed as a resource but has no kustomization file",
				Fix:     "add a kustomization.yaml to flux-apps/app/sub/ that lists its manifests, or list the files themselves (Kustomization app in " + appFile + ")",
			}},
		},
		{
			name: "kustomization from another source",
			changes: map[string]string{
				appFile: "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: app}\nspec:\n  path: ./x\n  sourceRef: {kind: OCIRepository, name: manifests}\n",
			},
			want: diag.Problems{{
				File:    appFile,
				Object:  appK,
				Message: "waiting for source OCIRepository/manifests: spec.sourceRef names another source than this checkout, and strata renders Kustomizations of this checkout only; what this Kustomization brings in is not known here",
				Fix:     "its stacks are not run from this checkout: move them under a Kustomization of this repository to run them here",
				Code:    diag.CodeUnreachable,
			}},
		},
		{
			name: "a key given twice",
			changes: map[string]string{
				appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app\n  name: other\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Message: `key "name" is given twice in one mapping, at line 4 and at line 5`,
				Fix:     `keep one "name" key at line 4 or 5 of ` + appTF + ": Kubernetes refuses a duplicate key, and kustomize would keep only the last",
			}},
		},
		{
			name:    "a key given twice in the entry directory",
			changes: map[string]string{initFile: baseRepo[initFile] + "data: {}\n"},
			want: diag.Problems{keptOut(diag.MissingInput(appFile, appK, "postBuild.substituteFrom", kindConfigMap, DefaultNamespace, "init"), initFile, kindConfigMap), {
				File:    initFile,
				Message: `key "data" is given twice in one mapping, at line 4 and at line 5`,
				Fix:     `keep one "data" key at line 4 or 5 of ` + initFile + ": Kubernetes refuses a duplicate key, and kustomize would keep only the last",
			}},
		},
		{
			name:    "kind typo",
			changes: map[string]string{appTF: strings.Replace(baseRepo[appTF], "kind: Terraform", "kind: Terrafrom", 1)},
			want: diag.Problems{{
				File:    appTF,
				Object:  "Terrafrom/app",
				Message: `kind "Terrafrom" is not a kind of the API group infra.contrib.fluxcd.io`,
				Fix:     "write kind: Terraform in " + appTF,
			}},
		},
		{
			name:    "apiVersion typo",
			changes: map[string]string{appTF: strings.Replace(baseRepo[appTF], "infra.contrib.fluxcd.io", "infra.contrib.flux.io", 1)},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `apiVersion "infra.contrib.flux.io/v1alpha2": the API group infra.contrib.flux.io looks like a misspelling of infra.contrib.fluxcd.io, so the object would not be read`,
				Fix:     "write apiVersion: infra.contrib.fluxcd.io/v1alpha2 in " + appTF,
			}},
		},
		{
			name:    "substitution left unclosed",
			changes: map[string]string{appTF: strings.Replace(baseRepo[appTF], "${region}", "${region", 1)},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "postBuild substitution of Kustomization app failed: missing closing brace",
				Fix:     "write variables as ${name} or ${name:=default} with names matching [_a-zA-Z][_a-zA-Z0-9]*, write a literal ${ as $${, or annotate the object kustomize.toolkit.fluxcd.io/substitute: disabled, in " + appTF,
			}},
		},
		{
			name:    "substitution of a name with a dash",
			changes: map[string]string{appTF: strings.Replace(baseRepo[appTF], "${region}", "${env-ironment}", 1)},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "postBuild substitution of Kustomization app failed: missing closing brace",
				Fix:     "write variables as ${name} or ${name:=default} with names matching [_a-zA-Z][_a-zA-Z0-9]*, write a literal ${ as $${, or annotate the object kustomize.toolkit.fluxcd.io/substitute: disabled, in " + appTF,
			}},
		},
		{
			name: "duplicate object in one build (kustomize refuses it)",
			changes: map[string]string{
				envDir + "/apps/again.yaml": baseRepo[appFile],
			},
			want: diag.Problems{{
				File:    envDir + "/apps/app.yaml",
				Message: "Kustomization/app is defined twice under " + envDir + "/apps/: in " + envDir + "/apps/again.yaml:1 and " + envDir + "/apps/app.yaml:1",
				Fix:     "rename or remove one of the Kustomization objects named app, in " + envDir + "/apps/again.yaml:1 and " + envDir + "/apps/app.yaml:1",
			}},
		},
		{
			name: "duplicate kustomization in two groups",
			changes: map[string]string{
				envDir + "/other/again.yaml": baseRepo[appFile],
			},
			want: diag.Problems{{
				File:    envDir + "/other/again.yaml",
				Object:  appK,
				Message: "Kustomization/app is defined twice in this environment: also in " + appFile,
				Fix:     "rename or remove one of the two Kustomization objects named app",
			}},
		},
		{
			name: "varsKeys names a missing key",
			changes: map[string]string{
				appTF: baseRepo[appTF] + "  varsFrom: [{kind: ConfigMap, name: init, varsKeys: [region, zone]}]\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.varsFrom[0] names key "zone" of ConfigMap init, which has no such key`,
				Fix:     "add zone to ConfigMap init in " + initFile + ", or remove it from varsKeys",
			}},
		},
		{
			name: "varsKeys rename with two colons",
			changes: map[string]string{
				appTF: baseRepo[appTF] + "  varsFrom: [{kind: ConfigMap, name: init, varsKeys: ['region:a:b']}]\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.varsFrom[0].varsKeys: "region:a:b" has more than one colon; write old:new`,
				Fix:     "write each key as key or old:new in " + appTF,
			}},
		},
		{
			name: "a repository Secret's key renamed, and an optional missing key handed over empty",
			changes: map[string]string{
				envDir + "/apps/creds.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {user: admin}\n",
				appTF:                       baseRepo[appTF] + "  varsFrom: [{kind: Secret, name: creds, optional: true, varsKeys: ['user:username', ghost]}]\n",
			},
		},
		{
			name: "a repository Secret's missing key",
			changes: map[string]string{
				envDir + "/apps/creds.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\ndata: {user: YWRtaW4=}\n",
				appTF:                       baseRepo[appTF] + "  varsFrom: [{kind: Secret, name: creds, varsKeys: [password]}]\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.varsFrom[0] names key "password" of Secret creds, which has no such key`,
				Fix:     "add password to Secret creds in " + envDir + "/apps/creds.yaml, or remove it from varsKeys",
			}},
		},
		{
			name: "valueFrom a field of a pod",
			changes: map[string]string{
				appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: app}\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n  vars: [{name: pod, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "spec.vars[0].valueFrom (pod) must name exactly one secretKeyRef or configMapKeyRef: strata runs no pod, so fieldRef and resourceFieldRef have nothing to read",
				Fix:     "use secretKeyRef or configMapKeyRef for pod in " + appTF,
			}},
		},
		{
			name: "value and valueFrom",
			changes: map[string]string{
				appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: app}\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n  vars: [{name: r, value: x, valueFrom: {configMapKeyRef: {name: init, key: region}}}]\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "spec.vars[0] (r) sets both value and valueFrom",
				Fix:     "keep one of value and valueFrom for r in " + appTF,
			}},
		},
		{
			name: "valueFrom a missing ConfigMap key",
			changes: map[string]string{
				appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: app}\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n  vars: [{name: z, valueFrom: {configMapKeyRef: {name: init, key: zone}}}, {name: y, valueFrom: {configMapKeyRef: {name: init, key: zone, optional: true}}}]\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.vars[0].valueFrom (z) names key "zone" of ConfigMap init, which has no such key`,
				Fix:     "add zone to ConfigMap init in " + initFile + ", or mark the reference optional: true",
			}},
		},
		{
			name: "values template that does not parse",
			changes: map[string]string{
				appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: app}\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n  values: {a: '$${{ .x '}\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.values: parse values template: template: values:1: unterminated quoted string`,
				Fix:     "write each template in spec.values as ${{ .AS.KEY }}, AS a readInputsFromSecrets entry's as, in " + appTF,
			}},
		},
		{
			name: "a repository Secret a stack also writes",
			changes: map[string]string{
				envDir + "/apps/out.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: app-out}\nstringData: {a: b}\n",
				appTF:                     baseRepo[appTF] + "  writeOutputsToSecret: {name: app-out, outputs: ['a:b']}\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.writeOutputsToSecret.name "app-out" is also a Secret of the repository (` + envDir + `/apps/out.yaml): the stack's outputs and the repository's Secret would overwrite each other`,
				Fix:     "rename the Secret in " + envDir + "/apps/out.yaml or the stack's writeOutputsToSecret.name in " + appTF,
			}},
		},
		{
			name: "writeOutputsToSecret.outputs rename without a new name",
			changes: map[string]string{
				appTF: baseRepo[appTF] + "  writeOutputsToSecret: {name: app-out, outputs: ['vpc_id:']}\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.writeOutputsToSecret.outputs: "vpc_id:" has no new name after the colon; write old:new`,
				Fix:     "write each output as name or old:new in " + appTF,
			}},
		},
		{
			name: "substitution disabled by annotation",
			changes: map[string]string{
				appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app\n  annotations: {kustomize.toolkit.fluxcd.io/substitute: disabled}\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n  vars: [{name: zone, value: \"${zone}\"}]\n",
			},
		},
		{
			name: "references in comments are no missing variables",
			changes: map[string]string{
				appTF: "# set ${nothing} here\n" + baseRepo[appTF] + "  # ${nothing_either}\n  approvePlan: auto # ${nor_this}\n",
			},
		},
		{
			name: "reference in a block scalar is a missing variable",
			changes: map[string]string{
				appTF: baseRepo[appTF] + "  backendConfig:\n    customConfiguration: |\n      # ${bucket}\n",
			},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `variable "bucket" is not defined`,
				Fix:     "add it to postBuild.substitute of Kustomization app in " + appFile + " or to ConfigMap init, or give a default with ${bucket:=value}",
			}},
		},
		{
			name: "source found in another directory",
			changes: map[string]string{
				appTF:                   ociTF,
				envDir + "/apps/s.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: sources}\nspec:\n  path: ./flux-apps/sources\n  sourceRef: {kind: GitRepository, name: flux-system}\n",
				"flux-apps/sources/oci.yaml": "apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: app-iac}\n" +
					"spec: {url: oci://r/app, ref: {tag: latest}}\n",
			},
		},
		{
			name: "invalid version",
			changes: map[string]string{
				envDir + "/apps/_versions.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: service-versions}\ndata: {version_app_tf: latest}\n",
			},
			want: diag.Problems{{
				File:    envDir + "/apps/_versions.yaml",
				Object:  "ConfigMap/service-versions",
				Message: `stack "app": version_app_tf is "latest", which is neither a version nor a semver constraint`,
				Fix:     `set version_app_tf to an exact version ("1.2.3") or a constraint ("~> 1.2.0") in ` + envDir + "/apps/_versions.yaml",
			}},
		},
		{
			name: "prod range reported once for key and source",
			changes: map[string]string{
				initFile:                   prodInit,
				envDir + "/_versions.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: service-versions}\ndata: {version_app_tf: \"~ 0.1.0-0\"}\n",
				appFile:                    strings.Replace(baseRepo[appFile], "name: init}]", "name: init}, {kind: ConfigMap, name: service-versions}]", 1),
				appTF:                      ociTF,
				srcFile:                    "apiVersion: source.toolkit.fluxcd.io/v1beta2\nkind: OCIRepository\nmetadata: {name: app-iac}\nspec:\n  url: oci://r/app\n  ref: {semver: \"${version_app_tf}\"}\n",
			},
			want: diag.Problems{{
				File:    envDir + "/_versions.yaml",
				Object:  "ConfigMap/service-versions",
				Message: `stack "app": version_app_tf is "~ 0.1.0-0", a range; a prod environment must pin an exact version`,
				Fix:     `pin version_app_tf to one exact version, e.g. "0.1.0", in ` + envDir + "/_versions.yaml",
			}},
		},
		{
			name: "prod pinned by digest",
			changes: map[string]string{
				initFile:                        prodInit,
				envDir + "/apps/_versions.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: service-versions}\ndata: {version_app_tf: \"~> 1.0\"}\n",
				appTF:                           ociTF,
				srcFile:                         "apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: app-iac}\nspec:\n  url: oci://r/app\n  ref: {semver: \"~> 1.0\", digest: \"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}\n",
			},
		},
		{
			name: "prod exact versions",
			changes: map[string]string{
				initFile:                        prodInit,
				envDir + "/apps/_versions.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: service-versions}\ndata: {version_app_tf: \"v1.2.3\"}\n",
			},
		},
		{
			name: "substitute key with an invalid name",
			changes: map[string]string{
				appFile: baseRepo[appFile] + "    substitute: {my-zone: a}\n",
			},
			want: diag.Problems{{
				File:    appFile,
				Object:  appK,
				Message: `postBuild.substitute has the variable "my-zone", whose name is not valid`,
				Fix:     `rename it to match [_a-zA-Z][_a-zA-Z0-9]*, e.g. "my_zone"`,
			}},
		},
		{
			name:    "terraform without sourceRef",
			changes: map[string]string{appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: app}\nspec: {path: ./flux-apps/app}\n"},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "spec.sourceRef is missing",
				Fix:     "set spec.sourceRef to GitRepository flux-system (this repository) or to an OCIRepository defined next to " + appTF,
			}},
		},
		{
			name:    "terraform path leaves the source",
			changes: map[string]string{appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: app}\nspec:\n  path: ../outside\n  sourceRef: {kind: GitRepository, name: flux-system}\n"},
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.path "../outside" leaves the source`,
				Fix:     "make spec.path relative to the root of the source, e.g. ./flux-apps/<kind>/<service>/terraform",
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeRepo(t, tt.changes)
			got := loadProblems(t, root)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load(%q) = %v, want %v; diff (-want +got):\n%s", filepath.Join(root, envDir), got, tt.want, diff)
			}
		})
	}
}

func TestExactVersion(t *testing.T) {
	tests := []struct {
		v            string
		exact, valid bool
	}{
		{v: "0.1.0", exact: true, valid: true},
		{v: "v1.2.3", exact: true, valid: true},
		{v: "1.2.3-rc.1+build.5", exact: true, valid: true},
		{v: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", exact: true, valid: true},
		{v: "1.2", valid: true},
		{v: "=1.2.3", valid: true},
		{v: "~ 0.1.0-0", valid: true},
		{v: "~> 9.0.0", valid: true},
		{v: ">= 1.0.0, < 2", valid: true},
		{v: "1.2.3 || 1.2.4", valid: true},
		{v: "latest"},
		{v: ""},
	}
	for _, tt := range tests {
		if got := ExactVersion(tt.v); got != tt.exact {
			t.Errorf("ExactVersion(%q) = %v, want %v", tt.v, got, tt.exact)
		}
		if got := validVersion(tt.v); got != tt.valid {
			t.Errorf("validVersion(%q) = %v, want %v", tt.v, got, tt.valid)
		}
	}
}

func TestExampleVersion(t *testing.T) {
	for in, want := range map[string]string{"~> 1.2.0": "1.2.0", "~ 0.1.0-0": "0.1.0", ">= 2": "2.0.0", "^1.4": "1.4.0", "*": "1.0.0"} {
		if got := exampleVersion(in); got != want {
			t.Errorf("exampleVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// The variables of spec.vars and spec.varsFrom, in the Tofu Controller's
// order: later entries win, and an entry that reads another stack's
// Secret keeps the variables a later entry sets.
func TestStackVarsOrder(t *testing.T) {
	const producer = "flux-apps/app/producer.yaml"
	root := writeRepo(t, map[string]string{
		envDir + "/apps/creds.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\ndata: {user: YWRtaW4=}\nstringData: {user: root, port: '5432'}\n",
		appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: app}\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n" +
			"  vars: [{name: region, value: x}, {name: user, value: first}, {name: vpc, valueFrom: {secretKeyRef: {name: net-out, key: vpc_id}}}]\n" +
			"  varsFrom:\n" +
			"  - {kind: Secret, name: net-out, varsKeys: ['cidr:region', count]}\n" +
			"  - {kind: Secret, name: creds}\n" +
			"  - {kind: ConfigMap, name: init, varsKeys: ['region:count']}\n" +
			"  - {kind: Secret, name: nobody, optional: true}\n",
		producer: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: net}\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n  writeOutputsToSecret: {name: net-out}\n",
	})
	env, err := Load(context.Background(), filepath.Join(root, envDir))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	s := env.Stack("app")
	if s == nil {
		t.Fatal("no stack app")
	}
	// stringData wins over data, as the API server merges them.
	wantVars := map[string]any{"region": "x", "user": "root", "port": "5432", "count": "eu-central-1"}
	if diff := cmp.Diff(wantVars, s.Vars); diff != "" {
		t.Errorf("stack app Vars mismatch (-want +got):\n%s", diff)
	}
	wantCV := []environment.ContractVars{
		{Contract: "net-out", Field: "spec.vars[2].valueFrom", Keys: []environment.KeyRename{{From: "vpc_id", To: "vpc"}}, ValueFrom: true, Keep: []string{"count", "port", "user"}},
		{Contract: "net-out", Field: "spec.varsFrom[0]", Keys: []environment.KeyRename{{From: "cidr", To: "region"}, {From: "count", To: "count"}}, Keep: []string{"count", "port", "user"}},
		{Contract: "nobody", Field: "spec.varsFrom[3]", Optional: true},
	}
	if diff := cmp.Diff(wantCV, s.ContractVars); diff != "" {
		t.Errorf("stack app ContractVars mismatch (-want +got):\n%s", diff)
	}
}

// A reader names the Secret its writer writes, also when the writer
// publishes its contract under another name (annotation strata.dev/contract).
func TestReadersNameTheWrittenSecret(t *testing.T) {
	root := writeRepo(t, map[string]string{
		appTF: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: app}\nspec:\n  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n" +
			"  varsFrom: [{kind: Secret, name: net-out}]\n  readInputsFromSecrets: [{name: net-out, as: net}]\n",
		"flux-apps/app/producer.yaml": "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: net, annotations: {strata.dev/contract: network}}\nspec:\n" +
			"  path: ./flux-apps/app\n  sourceRef: {kind: GitRepository, name: flux-system}\n  writeOutputsToSecret: {name: net-out}\n",
	})
	env, err := Load(context.Background(), filepath.Join(root, envDir))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	s := env.Stack("app")
	got := []string{s.Consumes[0].Contract, s.ContractVars[0].Contract}
	if diff := cmp.Diff([]string{"network", "network"}, got); diff != "" {
		t.Errorf("contracts read by app mismatch (-want +got):\n%s", diff)
	}
}

// withFix is a missing input's problem with the stacks that write Secrets
// named in its fix, as validateStacks says them.
func withFix(p diag.Problem, produced string) diag.Problem {
	p.Fix = fmt.Sprintf("%s; or name a Secret a stack writes (%s)", p.Fix, produced)
	return p
}

// keptOut is a missing input that the checkout holds in file, which a
// problem of that file keeps out of the render (explainMissing).
func keptOut(p diag.Problem, file, kind string) diag.Problem {
	p.Message = strings.Replace(p.Message, "it is not in the repository;", file+" holds a "+kind+" of that name, and a problem of that file keeps it out;", 1)
	p.Fix = "correct " + file + " (its problem is listed), or " + p.Fix
	return p
}
