package tofu

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-exec/tfexec"
)

// Workspace is one stack's working directory, run by one tofu binary.
type Workspace struct {
	dir    string
	binary string
	// env is the environment of the commands strata runs itself: the
	// process environment, the stack's own and Options.Env.
	env map[string]string
	// backendConfig are the -backend-config values of init.
	backendConfig []string
	// cloud is Options.Cloud.
	cloud bool
	// versionFile is Options.VersionFile.
	versionFile string
	grace       time.Duration
	tf          *tfexec.Terraform
}

// Options configure a Workspace.
type Options struct {
	// Env is added to the process environment of every tofu command
	// (for example TF_PLUGIN_CACHE_DIR or TF_CLI_CONFIG_FILE).
	Env map[string]string
	// StackEnv is the stack's own environment (the Tofu Controller's
	// runnerPodTemplate env and envFrom), over the process environment
	// and under Env. Unlike the process environment's, its TF_VAR_
	// variables reach tofu: the stack asked for them. Private.
	StackEnv map[string]string
	// BackendConfig are given to init as -backend-config, each
	// "key=value", in order, as the Tofu Controller gives
	// spec.backendConfigsFrom. They never appear on a command line (see
	// Init). Private.
	BackendConfig []string
	// Cloud says the module's own cloud block keeps the state (HCP
	// Terraform, Terraform Enterprise): init runs without -reconfigure,
	// which tofu refuses for it, since it applies a changed cloud block
	// by itself.
	Cloud bool
	// GracePeriod is how long tofu may take to stop after an interrupt
	// before it is killed. It is generous by default (5 minutes), so that
	// tofu is never killed while it writes state.
	GracePeriod time.Duration
	// VersionFile keeps the tofu binary's version across processes (see
	// Version); empty, each process asks the binary once.
	VersionFile string
}

// New returns a workspace for dir run by the tofu binary at binary.
func New(binary, dir string, opts Options) (*Workspace, error) {
	tf, err := tfexec.NewTerraform(dir, binary)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	env := envMap(os.Environ())
	maps.Copy(env, opts.StackEnv)
	maps.Copy(env, opts.Env)
	// A CLI configuration file that does not exist makes tofu print a
	// warning on stdout, in the middle of its JSON; tofu's defaults serve
	// instead.
	if p := env["TF_CLI_CONFIG_FILE"]; p != "" {
		if _, err := os.Stat(p); err != nil {
			delete(env, "TF_CLI_CONFIG_FILE")
		}
	}
	// terraform-exec refuses the variables it manages, TF_VAR_ among
	// them: its commands (output) run without the stack's TF_VAR_
	// variables, which only plan and apply read.
	if err := tf.SetEnv(tfexec.CleanEnv(maps.Clone(env))); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	env = tfexec.CleanEnv(env)
	for k, v := range opts.StackEnv {
		if strings.HasPrefix(k, "TF_VAR_") {
			env[k] = v
		}
	}
	grace := opts.GracePeriod
	if grace <= 0 {
		grace = 5 * time.Minute
	}
	// Cancelling the context sends tofu an interrupt (SIGINT). An apply is
	// only killed if it has not stopped after the grace period (see
	// Apply); every other command writes no state, and is killed once
	// commandGrace has passed.
	if err := tf.SetWaitDelay(min(grace, commandGrace)); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	return &Workspace{dir: dir, binary: binary, env: env, backendConfig: slices.Clone(opts.BackendConfig), cloud: opts.Cloud, versionFile: opts.VersionFile, grace: grace, tf: tf}, nil
}

// Dir is the workspace directory.
func (w *Workspace) Dir() string { return w.dir }

func envMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok {
			m[k] = v
		}
	}
	return m
}
