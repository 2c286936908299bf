package flux

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/inputs"
)

// Files the isolation tests add to baseRepo.
const (
	webFile = envDir + "/apps/web.yaml"
	// sharedCM is a ConfigMap that two parts of a repository both hold.
	sharedCM = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared, namespace: flux-system}\ndata: {a: b}\n"
	webK     = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: web}
spec:
  path: ./flux-apps/web
  sourceRef: {kind: GitRepository, name: flux-system}
  postBuild:
    substituteFrom: [{kind: ConfigMap, name: init}]
`
	webRelease = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: web}
spec:
  values:
    host: web.${domain}
`
	dupKey = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dash}\ndata:\n  a: x\n  a: y\n"
	svcTF  = `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata: {name: svc}
spec:
  path: ./flux-apps/app
  sourceRef: {kind: GitRepository, name: flux-system}
  dependsOn: [{name: app}]
`
	svcFile = envDir + "/apps/svc.yaml"
	svcK    = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: svc}
spec:
  path: ./flux-apps/svc
  sourceRef: {kind: GitRepository, name: flux-system}
`
)

// kustomizationAt is a Flux Kustomization of this repository at path.
func kustomizationAt(name, path string) string {
	return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: " + name + "}\nspec:\n  path: " + path +
		"\n  sourceRef: {kind: GitRepository, name: flux-system}\n"
}

// terraformAt is a Terraform object of the app's code.
func terraformAt(name string) string {
	return "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: " + name + "}\nspec:\n  path: ./flux-apps/app\n" +
		"  sourceRef: {kind: GitRepository, name: flux-system}\n"
}

// isolation is what a load held back, in short.
type isolation struct {
	Stacks []string
	// Blocked are "stack@Kustomization" ("@Kustomization" for one that
	// could not be built), with " waiting" for a stack that waits.
	Blocked []string
	// Warnings are the files of the warnings; Problems of the problems
	// of the whole environment.
	Warnings   []string
	Problems   []string
	Incomplete bool
}

func isolationOf(env *environment.Environment, err error) isolation {
	var out isolation
	var ps diag.Problems
	errors.As(err, &ps)
	for _, p := range ps {
		out.Problems = append(out.Problems, p.File)
	}
	if env == nil {
		return out
	}
	for _, s := range env.Stacks {
		out.Stacks = append(out.Stacks, s.Name)
	}
	for _, b := range env.Blocked {
		e := b.Stack + "@" + b.Kustomization
		if b.Waiting {
			e += " waiting"
		}
		out.Blocked = append(out.Blocked, e)
	}
	for _, p := range env.Warnings {
		out.Warnings = append(out.Warnings, p.File)
	}
	sort.Strings(out.Blocked)
	out.Incomplete = env.Incomplete()
	return out
}

func TestIsolation(t *testing.T) {
	files, err := inputs.ReadFiles(context.Background(), []string{filepath.Join("testdata", "inputs")})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		changes map[string]string
		opts    Options
		want    isolation
		// reason is a part of the first blocked entry's reason; reasons
		// a part of the reason of each blocked entry named, by stack.
		reason  string
		reasons map[string]string
	}{
		{
			name:    "an unrelated app's problem is a warning",
			changes: map[string]string{webFile: webK, "flux-apps/web/dash.yaml": dupKey},
			want:    isolation{Stacks: []string{"app"}, Warnings: []string{"flux-apps/web/dash.yaml"}},
		},
		{
			name: "an unrelated app that waits for an input and holds a broken file is a warning, as it is with the input",
			changes: map[string]string{
				webFile:                   strings.Replace(webK, "[{kind: ConfigMap, name: init}]", "[{kind: ConfigMap, name: init}, {kind: Secret, name: web-secrets}]", 1),
				"flux-apps/web/dash.yaml": dupKey,
			},
			want: isolation{Stacks: []string{"app"}, Warnings: []string{webFile, "flux-apps/web/dash.yaml"}},
		},
		{
			// Flux applies the entry directory with its own Kustomization:
			// two of them apply the ConfigMap, which is not a failed build.
			name: "an object that the entry directory and a stack's Kustomization render from two files is a warning",
			changes: map[string]string{
				envDir + "/kustomization.yaml": "resources: [init.yaml, apps/app.yaml, ../../../common/shared.yaml]\n",
				"common/shared.yaml":           sharedCM,
				"flux-apps/app/shared.yaml":    sharedCM,
			},
			want: isolation{Stacks: []string{"app"}, Warnings: []string{"flux-apps/app/shared.yaml"}},
		},
		{
			name:    "a problem in the stack's own Kustomization blocks it",
			changes: map[string]string{"flux-apps/app/dash.yaml": dupKey},
			want:    isolation{Blocked: []string{"app@app"}},
			reason:  `Kustomization app (` + appFile + `): flux-apps/app/dash.yaml: key "a" is given twice`,
		},
		{
			name: "dependsOn a broken Kustomization blocks the stacks of the one that depends",
			changes: map[string]string{webFile: webK, "flux-apps/web/dash.yaml": dupKey,
				appFile: strings.Replace(baseRepo[appFile], "spec:\n", "spec:\n  dependsOn: [{name: web}]\n", 1)},
			want:   isolation{Blocked: []string{"app@app"}},
			reason: "it depends on Kustomization web, which is blocked",
		},
		{
			name: "a stack's own problem blocks it and the stacks that depend on it, not their Kustomization's others",
			changes: map[string]string{
				appTF:   strings.Replace(baseRepo[appTF], "metadata: {name: app}", "metadata: {name: app, annotations: {strata.dev/layer: platform}}", 1),
				svcFile: svcK, "flux-apps/svc/terraform.yaml": svcTF,
				"flux-apps/svc/other.yaml": strings.Replace(strings.Replace(svcTF, "name: svc", "name: other", 1), "  dependsOn: [{name: app}]\n", "", 1),
			},
			want:   isolation{Stacks: []string{"other"}, Blocked: []string{"app@app", "svc@svc"}},
			reason: `annotation strata.dev/layer is "platform"`,
		},
		{
			name: "a Secret that lives in the cluster makes the stack wait",
			changes: map[string]string{appTF: baseRepo[appTF] + "  varsFrom: [{kind: Secret, name: creds}]\n",
				svcFile: svcK, "flux-apps/svc/terraform.yaml": svcTF},
			want:   isolation{Blocked: []string{"app@app waiting", "svc@svc waiting"}},
			reason: "waiting for input Secret/flux-system/creds (spec.varsFrom[0])",
		},
		{
			name:    "--inputs gives it",
			changes: map[string]string{appTF: baseRepo[appTF] + "  varsFrom: [{kind: Secret, name: creds}]\n"},
			opts:    Options{Inputs: files},
			want:    isolation{Stacks: []string{"app"}},
		},
		{
			name:    "a missing variable of an object strata does not run is empty, silently",
			changes: map[string]string{webFile: webK, "flux-apps/web/release.yaml": webRelease},
			want:    isolation{Stacks: []string{"app"}},
		},
		{
			name:    "--strict-substitution makes it a problem",
			changes: map[string]string{webFile: webK, "flux-apps/web/release.yaml": webRelease},
			opts:    Options{StrictSubstitution: true},
			want:    isolation{Stacks: []string{"app"}, Warnings: []string{"flux-apps/web/release.yaml"}},
		},
		{
			name:    "a missing variable of a Terraform object blocks its stack",
			changes: map[string]string{appTF: strings.Replace(baseRepo[appTF], "${region}", "${nope}", 1)},
			want:    isolation{Blocked: []string{"app@app"}},
			reason:  `variable "nope" is not defined`,
		},
		{
			name: "a missing variable of the stack's source blocks it",
			changes: map[string]string{
				appTF:                       strings.Replace(baseRepo[appTF], "{kind: GitRepository, name: flux-system}", "{kind: OCIRepository, name: app-iac}", 1),
				"flux-apps/app/source.yaml": "apiVersion: source.toolkit.fluxcd.io/v1beta2\nkind: OCIRepository\nmetadata: {name: app-iac}\nspec:\n  url: oci://${registry}/app\n  ref: {semver: \"1.0.0\"}\n",
			},
			want:   isolation{Blocked: []string{"app@app"}},
			reason: "the source of stack app: variable(s) registry not defined",
		},
		{
			name:    "a Kustomization whose path cannot be known is blocked, and the environment incomplete",
			changes: map[string]string{webFile: strings.Replace(webK, "./flux-apps/web", "./flux-apps/${cluster}/web", 1)},
			want:    isolation{Stacks: []string{"app"}, Blocked: []string{"@web"}, Incomplete: true},
			reason:  `spec.path "./flux-apps/${cluster}/web" is not a directory`,
		},
		{
			name: "a broken parent holds back the stacks of the Kustomizations it renders, not a sibling chain's",
			changes: map[string]string{
				envDir + "/apps/platform.yaml": kustomizationAt("platform", "./flux-apps/platform"),
				"flux-apps/platform/net.yaml":  kustomizationAt("platform-net", "./flux-apps/net"),
				"flux-apps/platform/dash.yaml": dupKey,
				"flux-apps/net/terraform.yaml": terraformAt("net"),
				"flux-apps/net/dns.yaml":       kustomizationAt("platform-dns", "./flux-apps/dns"),
				"flux-apps/dns/terraform.yaml": terraformAt("dns"),
				envDir + "/apps/tools.yaml":    kustomizationAt("tools", "./flux-apps/tools"),
				"flux-apps/tools/ci.yaml":      kustomizationAt("tools-ci", "./flux-apps/ci"),
				"flux-apps/ci/terraform.yaml":  terraformAt("ci"),
			},
			want: isolation{Stacks: []string{"app", "ci"}, Blocked: []string{"dns@platform-dns", "net@platform-net"}},
			reasons: map[string]string{
				"net": `Kustomization platform-net (flux-apps/platform/net.yaml): Kustomization platform, which brings it in, is blocked: flux-apps/platform/dash.yaml: key "a" is given twice`,
				"dns": `Kustomization platform-dns (flux-apps/net/dns.yaml): Kustomization platform-net, which brings it in, is blocked: flux-apps/platform/dash.yaml: key "a" is given twice`,
			},
		},
		{
			name:    "a Terraform object of the entry directory is the bootstrap Kustomization's",
			changes: map[string]string{envDir + "/seed.yaml": strings.Replace(baseRepo[appTF], "name: app", "name: seed", 1)},
			want:    isolation{Stacks: []string{"app", "seed"}},
		},
		{
			name: "a ConfigMap another Kustomization renders is there for the others",
			changes: map[string]string{
				envDir + "/cfg/cfg.yaml":      "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: cfg}\nspec:\n  path: ./flux-apps/cfg\n  sourceRef: {kind: GitRepository, name: flux-system}\n",
				"flux-apps/cfg/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cluster-settings}\ndata: {zone: z1}\n",
				appFile:                       strings.Replace(baseRepo[appFile], "[{kind: ConfigMap, name: init}]", "[{kind: ConfigMap, name: init}, {kind: ConfigMap, name: cluster-settings}]", 1),
				appTF:                         strings.Replace(baseRepo[appTF], "${region}", "${zone}", 1),
			},
			want: isolation{Stacks: []string{"app"}},
		},
		{
			name: "a kustomize configuration file that Flux's generator applies fails its Kustomization: its stacks are held back, with the file",
			changes: map[string]string{
				svcFile:                        svcK,
				"flux-apps/svc/svc.yaml":       strings.Replace(svcTF, "  dependsOn: [{name: app}]\n", "", 1),
				"flux-apps/svc/resources.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata: {name: greeting}\nresources: [svc.yaml]\n",
			},
			want:   isolation{Stacks: []string{"app"}, Blocked: []string{"svc@svc"}},
			reason: "flux-apps/svc/resources.yaml: Kustomization greeting (kustomize.config.k8s.io/v1beta1) is among the objects Flux applies, and no cluster serves that kind",
		},
		{
			name:    "a problem of the init ConfigMap holds back everything",
			changes: map[string]string{initFile: strings.Replace(baseRepo[initFile], "environmentClass: non-prod", "environmentClass: staging", 1)},
			want:    isolation{Stacks: []string{"app"}, Problems: []string{initFile}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeRepo(t, tt.changes)
			dir := filepath.Join(root, envDir)
			env, err := Load(WithOptions(context.Background(), tt.opts), dir)
			var ps diag.Problems
			if err != nil && !errors.As(err, &ps) {
				t.Fatalf("Load(%q) = %v, want problems or none", dir, err)
			}
			got := isolationOf(env, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load(%q) = %+v, want %+v; diff (-want +got):\n%s\nall problems: %v", dir, got, tt.want, diff, environment.AllProblems(env, err))
			}
			if tt.reason != "" && (len(env.Blocked) == 0 || !strings.Contains(env.Blocked[0].Reason, tt.reason)) {
				t.Errorf("Load(%q) blocked = %+v, want the first one's reason to hold %q", dir, env.Blocked, tt.reason)
			}
			for stack, want := range tt.reasons {
				i := slices.IndexFunc(env.Blocked, func(b environment.Blocked) bool { return b.Stack == stack })
				if i < 0 || !strings.Contains(env.Blocked[i].Reason, want) {
					t.Errorf("Load(%q) blocked = %+v, want stack %s blocked with a reason holding %q", dir, env.Blocked, stack, want)
				}
			}
		})
	}
}

// TestIsolationVars checks what reached the stacks: a ConfigMap another
// Kustomization renders, substituted, and a Secret given with --inputs,
// private.
func TestIsolationVars(t *testing.T) {
	files, err := inputs.ReadFiles(context.Background(), []string{filepath.Join("testdata", "inputs")})
	if err != nil {
		t.Fatal(err)
	}
	root := writeRepo(t, map[string]string{
		envDir + "/cfg/cfg.yaml":      "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: cfg}\nspec:\n  path: ./flux-apps/cfg\n  sourceRef: {kind: GitRepository, name: flux-system}\n",
		"flux-apps/cfg/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cluster-settings}\ndata: {zone: z1}\n",
		appFile:                       strings.Replace(baseRepo[appFile], "[{kind: ConfigMap, name: init}]", "[{kind: ConfigMap, name: init}, {kind: ConfigMap, name: cluster-settings}]", 1),
		appTF:                         strings.Replace(baseRepo[appTF], "${region}", "${zone}", 1) + "  varsFrom: [{kind: Secret, name: creds}]\n",
	})
	dir := filepath.Join(root, envDir)
	env, err := Load(WithOptions(context.Background(), Options{Inputs: files}), dir)
	if err != nil || len(env.Stacks) != 1 {
		t.Fatalf("Load(%q) = %v, %v; want one stack", dir, env, err)
	}
	want := map[string]any{"region": "z1", "token": "SENTINEL-input-token"}
	if diff := cmp.Diff(want, env.Stacks[0].Vars); diff != "" {
		t.Errorf("Load(%q) stack app vars diff (-want +got):\n%s", dir, diff)
	}
}
