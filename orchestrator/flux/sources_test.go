package flux

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gogit "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/inputs"
)

// sourcesRepo writes a repository whose Kustomization app (sourceRef
// kustomizationSource) brings in Terraform app (sourceRef tfRef,
// kind/name or kind/namespace/name), with
// the extra manifests of flux-apps/app/sources.yaml. It returns the root.
func sourcesRepo(t *testing.T, kustomizationSource, tfRef, sources string) string {
	t.Helper()
	root := t.TempDir()
	testkit.WriteFile(t, filepath.Join(root, envDir, "init.yaml"), `apiVersion: v1
kind: ConfigMap
metadata:
  name: init
  namespace: flux-system
data:
  clientId: acme
  environment: stage
  environmentClass: non-prod
  region: eu-central-1
`)
	testkit.WriteFile(t, filepath.Join(root, envDir, "platform", "sources.yaml"), `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: platform
  namespace: flux-system
spec:
  interval: 1m
  url: https://GitHub.com/Acme/Platform.git
  ref:
    branch: main
`)
	testkit.WriteFile(t, filepath.Join(root, envDir, "apps", "app.yaml"), `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: app
  namespace: flux-system
spec:
  interval: 10m
  prune: true
  sourceRef:
    kind: GitRepository
    name: `+kustomizationSource+`
  path: ./flux-apps/app
`)
	kind, name, _ := strings.Cut(tfRef, "/")
	if ns, n, ok := strings.Cut(name, "/"); ok {
		name = n + "\n    namespace: " + ns
	}
	testkit.WriteFile(t, filepath.Join(root, "flux-apps", "app", "terraform.yaml"), `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: app
  namespace: flux-system
spec:
  approvePlan: auto
  path: ./modules/app
  sourceRef:
    kind: `+kind+`
    name: `+name+"\n")
	testkit.WriteFile(t, filepath.Join(root, "modules", "app", "main.tf"), "resource \"terraform_data\" \"this\" {}\n")
	files := "- terraform.yaml\n"
	if sources != "" {
		testkit.WriteFile(t, filepath.Join(root, "flux-apps", "app", "sources.yaml"), sources)
		files += "- sources.yaml\n"
	}
	testkit.WriteFile(t, filepath.Join(root, "flux-apps", "app", "kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"+files)
	return root
}

// withRemote makes root a git repository with the remote origin at url.
func withRemote(t *testing.T, root, url string) {
	t.Helper()
	r, err := gogit.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.CreateRemote(&gitconfig.RemoteConfig{Name: "origin", URLs: []string{url}}); err != nil {
		t.Fatal(err)
	}
}

const (
	modulesRepo = `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: modules
  namespace: flux-system
spec:
  interval: 1m
  url: ssh://git@git.example/acme/modules
  ref:
    semver: ">=1.0.0 <2.0.0"
  ignore: |
    /docs
  secretRef:
    name: modules-auth
`
	modulesAuth = `---
apiVersion: v1
kind: Secret
metadata:
  name: modules-auth
  namespace: flux-system
stringData:
  identity: SENTINEL-IDENTITY
  known_hosts: git.example ssh-ed25519 AAAA
`
	modulesBucket = `apiVersion: source.toolkit.fluxcd.io/v1
kind: Bucket
metadata:
  name: code
  namespace: flux-system
spec:
  interval: 5m
  provider: generic
  bucketName: iac
  endpoint: 127.0.0.1:9000
  insecure: true
  prefix: app/
  secretRef:
    name: code-auth
---
apiVersion: v1
kind: Secret
metadata:
  name: code-auth
  namespace: flux-system
stringData:
  accesskey: key
  secretkey: SENTINEL-SECRET
`
)

func TestLoadSources(t *testing.T) {
	ignore := "/docs\n"
	// What the GitRepository modules and the Bucket code give, their
	// Secrets read: the same from the repository and from --inputs.
	modules := environment.Source{
		Kind: environment.SourceGitRepository, Name: "modules", File: "flux-apps/app/sources.yaml",
		URL: "ssh://git@git.example/acme/modules", Semver: ">=1.0.0 <2.0.0",
		Git: &environment.GitSource{
			URL: "ssh://git@git.example/acme/modules", Semver: ">=1.0.0 <2.0.0", Ignore: &ignore,
			SecretRef:   "modules-auth",
			Credentials: environment.Credentials{"identity": []byte("SENTINEL-IDENTITY"), "known_hosts": []byte("git.example ssh-ed25519 AAAA")},
		},
	}
	code := environment.Source{
		Kind: environment.SourceBucket, Name: "code", File: "flux-apps/app/sources.yaml",
		Bucket: &environment.BucketSource{
			Provider: "generic", BucketName: "iac", Endpoint: "127.0.0.1:9000", Prefix: "app/", Insecure: true,
			SecretRef:   "code-auth",
			Credentials: environment.Credentials{"accesskey": []byte("key"), "secretkey": []byte("SENTINEL-SECRET")},
		},
	}
	tests := []struct {
		name       string
		kSource    string
		tfRef      string
		sources    string
		remote     string
		selfSource []string
		// inputs, when set, is the manifest given with --inputs.
		inputs string
		want   environment.Source
	}{
		{
			name:    "a GitRepository whose url is a remote is this repository",
			kSource: "platform", tfRef: "GitRepository/platform",
			remote: "git@github.com:acme/platform",
			want:   environment.Source{Kind: environment.SourceGitRepository, Name: "platform", Self: true},
		},
		{
			name:    "--self-source names it for a checkout without remotes",
			kSource: "platform", tfRef: "GitRepository/platform",
			selfSource: []string{"GitRepository/flux-system/platform"},
			want:       environment.Source{Kind: environment.SourceGitRepository, Name: "platform", Self: true},
		},
		{
			name:    "flux-system is this repository",
			kSource: "flux-system", tfRef: "GitRepository/flux-system",
			want: environment.Source{Kind: environment.SourceGitRepository, Name: "flux-system"},
		},
		{
			name:    "another repository is fetched, with its Secret",
			kSource: "flux-system", tfRef: "GitRepository/modules",
			sources: modulesRepo + modulesAuth,
			remote:  "git@github.com:acme/platform",
			want:    modules,
		},
		{
			name:    "a GitRepository's Secret given with --inputs",
			kSource: "flux-system", tfRef: "GitRepository/modules",
			sources: modulesRepo,
			inputs:  modulesAuth,
			want:    modules,
		},
		{
			name:    "a GitRepository's Secret given with --inputs in the GitRepository's namespace",
			kSource: "flux-system", tfRef: "GitRepository/sources/modules",
			sources: strings.Replace(modulesRepo, "namespace: flux-system", "namespace: sources", 1),
			inputs:  strings.Replace(modulesAuth, "namespace: flux-system", "namespace: sources", 1),
			want:    modules,
		},
		{
			name:    "a Bucket's Secret given with --inputs",
			kSource: "flux-system", tfRef: "Bucket/code",
			sources: modulesBucket[:strings.Index(modulesBucket, "---")],
			inputs:  modulesBucket[strings.Index(modulesBucket, "---"):],
			want:    code,
		},
		{
			name:    "a Bucket is fetched, with its Secret",
			kSource: "flux-system", tfRef: "Bucket/code",
			sources: modulesBucket,
			want:    code,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := sourcesRepo(t, tt.kSource, tt.tfRef, tt.sources)
			if tt.remote != "" {
				withRemote(t, root, tt.remote)
			}
			opts := Options{SelfSources: tt.selfSource}
			if tt.inputs != "" {
				opts.Inputs = inputFiles(t, tt.inputs)
			}
			ctx := WithOptions(context.Background(), opts)
			dir := filepath.Join(root, envDir)
			env, err := Load(ctx, dir)
			if err != nil {
				t.Fatalf("Load(%q) = %v, want nil", dir, err)
			}
			s := env.Stack("app")
			if s == nil {
				t.Fatalf("Load(%q) has no stack app", dir)
			}
			if diff := cmp.Diff(tt.want, s.Source); diff != "" {
				t.Errorf("Load(%q) source = %+v, want %+v; diff (-want +got):\n%s", dir, s.Source, tt.want, diff)
			}
		})
	}
}

func TestLoadSourceProblems(t *testing.T) {
	tests := []struct {
		name    string
		tfRef   string
		sources string
		// inputs, when set, is the manifest given with --inputs.
		inputs string
		prod   bool
		want   diag.Problems
	}{
		{
			name:    "the Secret of a GitRepository is missing",
			tfRef:   "GitRepository/modules",
			sources: modulesRepo,
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "waiting for input Secret/flux-system/modules-auth (spec.secretRef of GitRepository/modules, flux-apps/app/sources.yaml): it is not in the repository; give it with --inputs or --kubeconfig",
				Fix:     "pass --inputs DIR with a manifest of Secret modules-auth in namespace flux-system (plain or SOPS-encrypted), or --kubeconfig to read it from the cluster; or add it to the repository, or remove spec.secretRef from flux-apps/app/sources.yaml",
				Code:    diag.CodeInputMissing,
				Input:   &diag.Input{Kind: kindSecret, Namespace: "flux-system", Name: "modules-auth"},
			}},
		},
		{
			name:    "the Secret of a Bucket is in neither the repository nor the inputs",
			tfRef:   "Bucket/code",
			sources: modulesBucket[:strings.Index(modulesBucket, "---")],
			inputs:  strings.Replace(modulesBucket[strings.Index(modulesBucket, "---"):], "name: code-auth", "name: other-auth", 1),
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "waiting for input Secret/flux-system/code-auth (spec.secretRef of Bucket/code, flux-apps/app/sources.yaml): it is not in the repository; give it with --inputs or --kubeconfig",
				Fix:     "pass --inputs DIR with a manifest of Secret code-auth in namespace flux-system (plain or SOPS-encrypted), or --kubeconfig to read it from the cluster; or add it to the repository, or remove spec.secretRef from flux-apps/app/sources.yaml",
				Code:    diag.CodeInputMissing,
				Input:   &diag.Input{Kind: kindSecret, Namespace: "flux-system", Name: "code-auth"},
			}},
		},
		{
			name:    "the Secret of a GitRepository is given in another namespace than the GitRepository's",
			tfRef:   "GitRepository/sources/modules",
			sources: strings.Replace(modulesRepo, "namespace: flux-system", "namespace: sources", 1),
			inputs:  modulesAuth,
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "waiting for input Secret/sources/modules-auth (spec.secretRef of GitRepository/modules, flux-apps/app/sources.yaml): it is not in the repository; give it with --inputs or --kubeconfig",
				Fix:     "pass --inputs DIR with a manifest of Secret modules-auth in namespace sources (plain or SOPS-encrypted), or --kubeconfig to read it from the cluster; or add it to the repository, or remove spec.secretRef from flux-apps/app/sources.yaml",
				Code:    diag.CodeInputMissing,
				Input:   &diag.Input{Kind: kindSecret, Namespace: "sources", Name: "modules-auth"},
			}},
		},
		{
			name:    "a GitRepository's semver is no range",
			tfRef:   "GitRepository/modules",
			sources: strings.Replace(modulesRepo, `">=1.0.0 <2.0.0"`, `"one"`, 1) + modulesAuth,
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.sourceRef names GitRepository/modules (flux-apps/app/sources.yaml), whose spec.ref.semver "one" is not a semver range: improper constraint: "one"`,
				Fix:     `write spec.ref.semver as a range such as ">=1.0.0 <2.0.0" or "~1.2" in flux-apps/app/sources.yaml`,
			}},
		},
		{
			name:    "a prod environment's GitRepository pins no version",
			tfRef:   "GitRepository/modules",
			sources: modulesRepo + modulesAuth,
			prod:    true,
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.sourceRef names GitRepository/modules (flux-apps/app/sources.yaml), whose spec.ref.semver is ">=1.0.0 <2.0.0", a range; a prod environment must pin an exact version`,
				Fix:     `pin spec.ref.semver to one exact version, e.g. "1.0.0", or set spec.ref.tag or spec.ref.commit in flux-apps/app/sources.yaml`,
			}},
		},
		{
			name:    "a prod environment's GitRepository pins one version",
			tfRef:   "GitRepository/modules",
			sources: strings.Replace(modulesRepo, `">=1.0.0 <2.0.0"`, `"v1.4.2"`, 1) + modulesAuth,
			prod:    true,
		},
		{
			name:    "a GitRepository's url has no scheme source-controller clones",
			tfRef:   "GitRepository/modules",
			sources: strings.Replace(modulesRepo, "ssh://git@git.example/acme/modules", "git@git.example:acme/modules", 1) + modulesAuth,
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.sourceRef names GitRepository/modules (flux-apps/app/sources.yaml), whose spec.url "git@git.example:acme/modules" is not an http://, https:// or ssh:// URL`,
				Fix:     "write spec.url as ssh://git@host/org/repo or https://host/org/repo, as source-controller requires in flux-apps/app/sources.yaml",
			}},
		},
		{
			name:  "a Bucket is missing",
			tfRef: "Bucket/code",
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: "spec.sourceRef names Bucket/code, which does not exist",
				Fix:     "define Bucket code in flux-apps/app/ (next to the Terraform object) or correct spec.sourceRef.name",
			}},
		},
		{
			name:    "a Bucket's provider is not S3",
			tfRef:   "Bucket/code",
			sources: strings.Replace(modulesBucket, "provider: generic", "provider: gcp", 1),
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.sourceRef names Bucket/code (flux-apps/app/sources.yaml), whose spec.provider is "gcp", which strata does not fetch from`,
				Fix:     "use provider generic (any S3 API) or aws, or publish the code as an OCI artefact in flux-apps/app/sources.yaml",
			}},
		},
		{
			name:    "a Bucket's Secret has no secretkey",
			tfRef:   "Bucket/code",
			sources: strings.Replace(modulesBucket, "  secretkey: SENTINEL-SECRET\n", "", 1),
			want: diag.Problems{{
				File:    appTF,
				Object:  appT,
				Message: `spec.sourceRef names Bucket/code (flux-apps/app/sources.yaml), whose spec.secretRef Secret "code-auth" has no accesskey and secretkey`,
				Fix:     "give the Secret both keys accesskey and secretkey, as source-controller reads them in flux-apps/app/sources.yaml",
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := sourcesRepo(t, "flux-system", tt.tfRef, tt.sources)
			if tt.prod {
				init := filepath.Join(root, envDir, "init.yaml")
				b, err := os.ReadFile(init)
				if err != nil {
					t.Fatal(err)
				}
				testkit.WriteFile(t, init, strings.Replace(string(b), "environmentClass: non-prod", "environmentClass: prod", 1))
			}
			opts := Options{}
			if tt.inputs != "" {
				opts.Inputs = inputFiles(t, tt.inputs)
			}
			got := loadProblemsWith(t, root, opts)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load(%q) = %v, want %v; diff (-want +got):\n%s", root, got, tt.want, diff)
			}
		})
	}
}

// inputFiles writes manifests to a file of a fresh directory and reads
// it as --inputs does.
func inputFiles(t *testing.T, manifests string) *inputs.Files {
	t.Helper()
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "inputs.yaml"), manifests)
	files, err := inputs.ReadFiles(context.Background(), []string{dir})
	if err != nil {
		t.Fatalf("inputs.ReadFiles(%q) = %v", dir, err)
	}
	return files
}

// TestLoadSelfKustomization checks that a Kustomization whose source is
// this repository under another name is followed, and one whose source
// is another repository is reported.
func TestLoadSelfKustomization(t *testing.T) {
	root := sourcesRepo(t, "platform", "GitRepository/flux-system", "")
	dir := filepath.Join(root, envDir)
	env, err := Load(context.Background(), dir)
	ps := environment.AllProblems(env, err)
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "waiting for source GitRepository/platform (https://GitHub.com/Acme/Platform.git)") || !env.Incomplete() {
		t.Errorf("Load(%q) without a remote = %v, %v; want the one problem of a Kustomization from another repository, waiting as a whole", dir, ps, err)
	}
	if len(env.Blocked) != 1 || !env.Blocked[0].Waiting {
		t.Errorf("Load(%q) without a remote: blocked %v, want the Kustomization waiting for its source", dir, env.Blocked)
	}
	withRemote(t, root, "ssh://git@github.com:22/acme/platform")
	env, err = Load(context.Background(), dir)
	if err != nil {
		t.Fatalf("Load(%q) with the remote = %v, want nil", dir, err)
	}
	if env.Stack("app") == nil {
		t.Errorf("Load(%q) with the remote has no stack app, want the Kustomization followed", dir)
	}
}

func TestCredentialsString(t *testing.T) {
	c := environment.Credentials{"password": []byte("SENTINEL")}
	for _, got := range []string{c.String(), c.GoString()} {
		if strings.Contains(got, "SENTINEL") {
			t.Errorf("Credentials.String() = %q, want no value", got)
		}
	}
}

func TestNormalGitURL(t *testing.T) {
	tests := map[string]string{
		"git@github.com:Acme/Platform.git":          "github.com/acme/platform",
		"ssh://git@github.com/acme/platform":        "github.com/acme/platform",
		"ssh://git@github.com:22/acme/platform.git": "github.com/acme/platform",
		"https://github.com/acme/platform/":         "github.com/acme/platform",
		"https://user:pw@GitHub.com/acme/platform":  "github.com/acme/platform",
		"http://127.0.0.1:8080/acme/platform.git":   "127.0.0.1/acme/platform",
		"/srv/git/platform.git":                     "srv/git/platform",
		"https://github.com":                        "github.com",
		"https://github.com/acme/other":             "github.com/acme/other",
	}
	for in, want := range tests {
		if got := normalGitURL(in); got != want {
			t.Errorf("normalGitURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseSelfSource(t *testing.T) {
	tests := []struct {
		in      string
		want    SelfSource
		wantErr bool
	}{
		{in: "GitRepository/flux-system/platform", want: SelfSource{Namespace: "flux-system", Name: "platform"}},
		{in: "GitRepository/platform", wantErr: true},
		{in: "OCIRepository/flux-system/platform", wantErr: true},
		{in: "GitRepository//platform", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseSelfSource(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseSelfSource(%q) = %v, %v, want %v (error: %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

// FuzzNormalGitURL checks that the SSH, scp-like and HTTPS forms of a
// repository's URL compare equal, and that what comes out is lower case
// without a trailing slash.
func FuzzNormalGitURL(f *testing.F) {
	for _, s := range [][2]string{{"github.com", "acme/x.git"}, {"h", "a/b/"}, {"git.example", "/srv/X.git"}, {"h", ""}, {"a.b", "://"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, host, p string) {
		for _, s := range []string{host + p, "https://" + host + "/" + p} {
			got := normalGitURL(s)
			if got != strings.ToLower(got) || strings.HasSuffix(got, "/") {
				t.Errorf("normalGitURL(%q) = %q, want lower case without a trailing /", s, got)
			}
		}
		if !plainHost(host) || strings.Contains(":"+p, "://") || strings.TrimSpace(p) != p {
			return
		}
		want := normalGitURL("https://" + host + "/" + p)
		forms := []string{"git@" + host + ":" + p, "ssh://git@" + host + "/" + p, "ssh://git@" + host + ":22/" + p}
		if !strings.HasSuffix(strings.ToLower(p), ".git") {
			forms = append(forms, "HTTPS://"+strings.ToUpper(host)+"/"+p+".git")
		}
		for _, s := range forms {
			if got := normalGitURL(s); got != want {
				t.Errorf("normalGitURL(%q) = %q, want %q as for https://%s/%s", s, got, want, host, p)
			}
		}
	})
}

// plainHost reports whether s is a host name of letters, digits, dots
// and dashes.
func plainHost(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// TestLoadCachedSources checks that the render cache keys on the load's
// options and on the checkout's remotes, which both say which
// GitRepositories are this repository, and never keeps an environment
// whose sources hold credentials.
func TestLoadCachedSources(t *testing.T) {
	root := sourcesRepo(t, "flux-system", "GitRepository/platform", "")
	dir := filepath.Join(root, envDir)
	state := t.TempDir()
	self := WithOptions(context.Background(), Options{SelfSources: []string{"GitRepository/flux-system/platform"}})
	steps := []struct {
		name     string
		ctx      context.Context
		remote   string
		wantHit  bool
		wantSelf bool
	}{
		{name: "--self-source renders", ctx: self, wantSelf: true},
		{name: "the same options read the cache", ctx: self, wantHit: true, wantSelf: true},
		{name: "other options render again", ctx: context.Background()},
		{name: "a new remote renders again", ctx: context.Background(), remote: "https://github.com/acme/platform", wantSelf: true},
		{name: "the same remote reads the cache", ctx: context.Background(), wantHit: true, wantSelf: true},
	}
	for _, st := range steps {
		if st.remote != "" {
			withRemote(t, root, st.remote)
		}
		env, hit, err := loadCached(st.ctx, dir, state)
		var ps diag.Problems
		if err != nil && !errors.As(err, &ps) {
			t.Fatalf("%s: loadCached(%q) = %v", st.name, dir, err)
		}
		if hit != st.wantHit {
			t.Errorf("%s: loadCached(%q) hit = %v, want %v", st.name, dir, hit, st.wantHit)
		}
		s := env.Stack("app")
		if got := s != nil && s.Source.Self; got != st.wantSelf {
			t.Errorf("%s: loadCached(%q) stack app from this repository = %v, want %v (problems: %v)", st.name, dir, got, st.wantSelf, ps)
		}
	}

	creds := sourcesRepo(t, "flux-system", "GitRepository/modules", modulesRepo+modulesAuth)
	dir = filepath.Join(creds, envDir)
	for i := range 2 {
		env, hit, err := loadCached(context.Background(), dir, state)
		if err != nil {
			t.Fatalf("loadCached(%q) #%d = %v", dir, i+1, err)
		}
		if hit {
			t.Errorf("loadCached(%q) #%d hit the cache, want an environment whose source holds credentials never kept", dir, i+1)
		}
		b, err := json.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "SENTINEL") || strings.Contains(string(b), base64.StdEncoding.EncodeToString([]byte("SENTINEL-IDENTITY"))) {
			t.Errorf("json.Marshal(environment) holds a source's credentials: %s", b)
		}
	}
}

// TestSourceTimeout reads an OCIRepository's spec.timeout into the stack's
// Source, and refuses one that is not a duration, naming the source's
// file.
func TestSourceTimeout(t *testing.T) {
	for _, tc := range []struct {
		timeout string
		want    time.Duration
		problem string
	}{
		{"", environment.DefaultSourceTimeout, ""},
		{"2m30s", 150 * time.Second, ""},
		{"soon", 0, `flux-apps/apps/db/source.yaml: OCIRepository/db-iac: spec.timeout "soon" is not a duration`},
		{"-5s", 0, `spec.timeout "-5s" is not a duration`},
	} {
		t.Run(tc.timeout, func(t *testing.T) {
			root := testkit.Copy(t, filepath.Join("testdata", "valid"))
			testkit.EditFile(t, root, "flux-apps/apps/db/terraform.yaml", "  readInputsFromSecrets:\n    - name: vpc\n", "")
			if tc.timeout != "" {
				testkit.EditFile(t, root, "flux-apps/apps/db/source.yaml", "  interval: 5m\n", "  interval: 5m\n  timeout: "+tc.timeout+"\n")
			}
			dir := filepath.Join(root, "environments", "acme", "stage")
			env, err := Load(context.Background(), dir)
			if tc.problem != "" {
				if ps := environment.AllProblems(env, err); !strings.Contains(ps.Error(), tc.problem) {
					t.Errorf("Load(%q) = %v, want a problem saying %q", dir, ps, tc.problem)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load(%q) = %v, want nil", dir, err)
			}
			s := env.Stack("db")
			if s == nil {
				t.Fatalf("Load(%q) has no stack db", dir)
			}
			if got := s.Source.Deadline(); got != tc.want {
				t.Errorf("Load(%q) stack db Source.Deadline() = %v, want %v", dir, got, tc.want)
			}
		})
	}
}
