package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// Files strata writes into a stack's workspace.
const (
	varFileName      = "strata.tfvars.json"
	backendFileName  = "backend_override.tf"
	planFileName     = "strata.tfplan"
	planJSONFileName = "strata.plan.json"
	initMarkerName   = "strata-init"
	cliConfigName    = "tofu.rc"
	pluginCacheName  = "plugin-cache"
	versionFileName  = "tofu-versions.json"
)

// workspace is a prepared stack directory.
type workspace struct {
	dir      string
	planFile string
	varFile  string
	// varFiles are spec.tfVarsFiles, resolved: -var-file after varFile.
	varFiles []string
	// initKey identifies what init last ran for: when it is unchanged, init
	// is skipped.
	initKey string
	// cloud says the module's own cloud block keeps the state.
	cloud bool
	// destroy plans the destruction of every resource: the stack left the
	// environment, or its spec.destroy is true.
	destroy bool
	// run are the stack's run options (spec.targets, …); zero for a
	// stack that left the environment.
	run  environment.Run
	tofu *tofu.Workspace
}

// prepare lays the stack's code into its workspace, keeping the workspace's
// .terraform directory (providers and modules already installed), and
// writes the variables, the backend and the tofu CLI configuration.
func (r *Runner) prepare(ctx context.Context, st *runState) error {
	req, in, s := st.req, st.in, st.req.Stack
	fail := func(err error) error {
		return fmt.Errorf("prepare workspace of stack %s: %w", s.Name, err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	dir, err := r.workspaceDir(req)
	if err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	if err := clearWorkspace(dir); err != nil {
		return fail(err)
	}
	if err := copyStack(req.Artifact, dir); err != nil {
		return fail(err)
	}
	// The module is read only for what needs it: variables strata offers,
	// and the backend it must declare itself.
	var decl declared
	if in.version != "" || len(in.documents) > 0 || s.BackendDisabled {
		if decl, err = readDeclared(dir); err != nil {
			return fail(err)
		}
	}
	backend, err := r.backend(req)
	if err != nil {
		return fail(err)
	}
	if s.BackendDisabled {
		if !decl.backend {
			return fail(fmt.Errorf("spec.backendConfig.disable is true, but the module at %s declares no backend or cloud block: "+
				"its state would be written into the workspace, which strata clears before every run; declare the backend in the module's terraform block, "+
				"or remove spec.backendConfig.disable from %s to keep the state in strata's backend", orNone(s.Path), s.File))
		}
	} else if err := os.WriteFile(filepath.Join(dir, backendFileName), []byte(backend), 0o600); err != nil {
		return fail(err)
	}
	// app_version is offered to the stacks that declare it, as the seed's
	// controller does; the others would only get a warning for it. So is
	// each readInputsFromSecrets document: the Tofu Controller hands it to
	// no variable, so only a stack that declares the variable gets it.
	if in.version != "" && decl.variables[AppVersionVar] {
		in.vars[AppVersionVar] = in.version
	}
	for as, doc := range in.documents {
		if decl.variables[as] {
			in.vars[as] = doc
		}
	}
	vars, err := json.MarshalIndent(in.vars, "", "  ")
	if err != nil {
		return fail(err)
	}
	varFile := filepath.Join(dir, varFileName)
	if err := os.WriteFile(varFile, vars, 0o600); err != nil {
		return fail(err)
	}
	if err := renderMainTemplate(dir, vars); err != nil {
		return fail(err)
	}
	extra, err := varFiles(req.Artifact, s.Run.VarFiles)
	if err != nil {
		return fail(err)
	}
	home, err := writeFiles(dir, s.Run.Files, s.Run.Mounts)
	if err != nil {
		return fail(err)
	}
	cliConfig, err := r.cliConfig(dir, s.Run.CLIConfig, st.log)
	if err != nil {
		return fail(err)
	}
	cloud := decl.cloud || cloudBlock(s.BackendConfig)
	tw, err := r.openTofu(dir, tofuSetup{home: home, cliConfig: cliConfig, run: s.Run, cloud: cloud})
	if err != nil {
		return fail(err)
	}
	// Init runs again when the code, the backend or what init is given
	// changes: the backend settings of spec.backendConfigsFrom and the
	// stack's environment, by their keyed hashes only.
	key := sha256.Sum256([]byte(req.Artifact.Digest + "\n" + backend + "\n" +
		in.specHashes[specBackendConfigsFrom] + "\n" + in.specHashes[specEnv]))
	st.ws = &workspace{
		dir:      dir,
		planFile: filepath.Join(dir, planFileName),
		varFile:  varFile,
		varFiles: extra,
		initKey:  hex.EncodeToString(key[:]),
		cloud:    cloud,
		destroy:  s.Run.Destroy,
		run:      s.Run,
		tofu:     tw,
	}
	return nil
}

// StateBackend is where a stack's state goes when its Terraform object has
// no backendConfig.customConfiguration.
type StateBackend struct {
	// Kind is "local" (the default: a file under the state directory),
	// "s3", or "kubernetes".
	Kind string
	// Bucket, Region and Endpoint configure the s3 backend; the key is
	// <client>/<env>/stacks/<stack>.tfstate, as the seed's, and locking
	// is native (use_lockfile).
	Bucket, Region, Endpoint string
	// Namespace, SecretSuffix and Kubeconfig configure the kubernetes
	// backend, the Tofu Controller's default: the state is the Secret
	// tfstate-<workspace>-<SecretSuffix> in Namespace (SecretSuffix is the
	// stack's name when empty), locked by a Lease, reached with the pod's
	// in-cluster configuration, or with the kubeconfig file Kubeconfig
	// when it is set.
	Namespace, SecretSuffix, Kubeconfig string
}

// Backend kinds.
const (
	BackendLocal      = "local"
	BackendS3         = "s3"
	BackendKubernetes = "kubernetes"
)

// localState reports whether the stack's state is a file strata keeps:
// no customConfiguration, and the local backend.
func (r *Runner) localState(req Request) bool {
	k := r.cfg.Backend.Kind
	return req.Stack.BackendConfig == "" && !req.Stack.BackendDisabled && (k == "" || k == BackendLocal)
}

// tofuSetup is how openTofu sets tofu up for a stack: see openTofu.
type tofuSetup struct {
	home, cliConfig string
	run             environment.Run
	cloud           bool
}

// openTofu returns the tofu workspace of dir, with the CLI configuration
// cliConfig (the shared one when "", see cliConfig) and the shared
// plugin cache; home, when set, is the HOME tofu runs
// with (the stack maps files there); cloud says the module's own cloud
// block keeps the state (tofu.Options.Cloud). run gives init the stack's backend
// settings (spec.backendConfigsFrom) and tofu the stack's environment
// (spec.runnerPodTemplate.spec.env and envFrom); in a runner pod
// (Config.PodEnv) the pod's own TF_VAR_ variables are the stack's too, as
// the Tofu Controller's runner hands its environment to tofu.
func (r *Runner) openTofu(dir string, setup tofuSetup) (*tofu.Workspace, error) {
	home, cliConfig, run := setup.home, setup.cliConfig, setup.run
	if cliConfig == "" {
		var err error
		if cliConfig, err = r.writeCLIConfig(); err != nil {
			return nil, err
		}
	}
	env := map[string]string{
		"TF_CLI_CONFIG_FILE":  cliConfig,
		"TF_PLUGIN_CACHE_DIR": filepath.Join(r.cfg.StateDir, pluginCacheName),
	}
	if r.cfg.ProviderMirrorCA != "" {
		env["SSL_CERT_FILE"] = r.cfg.ProviderMirrorCA
	}
	if home != "" {
		env["HOME"] = home
	}
	stackEnv := map[string]string{}
	if r.cfg.PodEnv {
		for _, kv := range os.Environ() {
			if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "TF_VAR_") {
				stackEnv[k] = v
			}
		}
	}
	for _, e := range run.Env {
		stackEnv[e.Name] = localMount(dir, run.Mounts, e.Value)
	}
	var backendConfig []string
	for _, b := range run.BackendConfigs {
		backendConfig = append(backendConfig, b.Key+"="+b.Value)
	}
	return tofu.New(r.cfg.Tofu, dir, tofu.Options{
		Env: env, StackEnv: stackEnv, BackendConfig: backendConfig, Cloud: setup.cloud,
		VersionFile: filepath.Join(r.cfg.StateDir, versionFileName),
	})
}

// backend returns the backend override: the stack's
// backendConfig.customConfiguration as written, else the environment's
// state backend, by default a local state file under the state directory,
// per client, environment and stack.
func (r *Runner) backend(req Request) (string, error) {
	if req.Stack.BackendDisabled {
		return "", nil // the module's own
	}
	if req.Stack.BackendConfig != "" {
		return "terraform {\n" + req.Stack.BackendConfig + "\n}\n", nil
	}
	switch b := r.cfg.Backend; b.Kind {
	case BackendS3:
		return s3Backend(b, s3StateKey(req)), nil
	case BackendKubernetes:
		return kubernetesBackend(b, req.Stack.Name), nil
	}
	statePath, err := r.localDefaultStatePath(req)
	if err != nil {
		return "", err
	}
	if statePath, err = filepath.Abs(statePath); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(statePath), 0o700); err != nil {
		return "", err
	}
	if req.Stack.Run.Workspace == "" {
		return fmt.Sprintf("terraform {\n  backend \"local\" {\n    path = %s\n  }\n}\n", strconv.Quote(statePath)), nil
	}
	// The states of the other tofu workspaces (spec.workspace) go beside
	// it, in <stack>.tfstate.d/<workspace>/terraform.tfstate: never in
	// the stack's workspace directory, which every run clears.
	return fmt.Sprintf("terraform {\n  backend \"local\" {\n    path          = %s\n    workspace_dir = %s\n  }\n}\n",
		strconv.Quote(statePath), strconv.Quote(statePath+".d")), nil
}

// s3Backend is an S3 backend block with native locking. With an endpoint
// (an S3-compatible service) it addresses buckets by path and skips the
// AWS-only checks.
func s3Backend(b StateBackend, key string) string {
	var sb strings.Builder
	sb.WriteString("terraform {\n  backend \"s3\" {\n")
	fmt.Fprintf(&sb, "    bucket       = %s\n", strconv.Quote(b.Bucket))
	fmt.Fprintf(&sb, "    key          = %s\n", strconv.Quote(key))
	fmt.Fprintf(&sb, "    region       = %s\n", strconv.Quote(b.Region))
	sb.WriteString("    encrypt      = true\n    use_lockfile = true\n")
	if b.Endpoint != "" {
		fmt.Fprintf(&sb, "    endpoints = {\n      s3 = %s\n    }\n", strconv.Quote(b.Endpoint))
		sb.WriteString("    use_path_style              = true\n")
		sb.WriteString("    skip_credentials_validation = true\n")
		sb.WriteString("    skip_requesting_account_id  = true\n")
		sb.WriteString("    skip_metadata_api_check     = true\n")
		sb.WriteString("    skip_region_validation      = true\n")
	}
	sb.WriteString("  }\n}\n")
	return sb.String()
}

// kubernetesBackend is the Tofu Controller's default backend: the state in
// the Secret tfstate-default-<suffix> of the namespace, the stack's name
// the suffix unless the object gives one (backendConfig.secretSuffix).
func kubernetesBackend(b StateBackend, stack string) string {
	suffix := b.SecretSuffix
	if suffix == "" {
		suffix = stack
	}
	var sb strings.Builder
	sb.WriteString("terraform {\n  backend \"kubernetes\" {\n")
	fmt.Fprintf(&sb, "    secret_suffix = %s\n", strconv.Quote(suffix))
	if b.Namespace != "" {
		fmt.Fprintf(&sb, "    namespace     = %s\n", strconv.Quote(b.Namespace))
	}
	if b.Kubeconfig != "" {
		fmt.Fprintf(&sb, "    config_path   = %s\n", strconv.Quote(b.Kubeconfig))
	} else {
		sb.WriteString("    in_cluster_config = true\n")
	}
	sb.WriteString("  }\n}\n")
	return sb.String()
}

// clearWorkspace removes everything but .terraform (installed providers and
// modules, and the init marker) and the dependency lock file.
func clearWorkspace(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		switch e.Name() {
		case ".terraform", ".terraform.lock.hcl":
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
