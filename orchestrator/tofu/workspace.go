package tofu

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-exec/tfexec"
)

// Workspace is one stack's working directory, run by one tofu binary.
type Workspace struct {
	dir    string
	binary string
	env    map[string]string
	grace  time.Duration
	tf     *tfexec.Terraform
}

// Options configure a Workspace.
type Options struct {
	// Env is added to the process environment of every tofu command
	// (for example TF_PLUGIN_CACHE_DIR or TF_CLI_CONFIG_FILE).
	Env map[string]string
	// GracePeriod is how long tofu may take to stop after an interrupt
	// before it is killed. It is generous by default (5 minutes), so that
	// tofu is never killed while it writes state.
	GracePeriod time.Duration
}

// New returns a workspace for dir run by the tofu binary at binary.
func New(binary, dir string, opts Options) (*Workspace, error) {
	tf, err := tfexec.NewTerraform(dir, binary)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
	}
	env := envMap(os.Environ())
	maps.Copy(env, opts.Env)
	// A CLI configuration file that does not exist makes tofu print a
	// warning on stdout, in the middle of its JSON; tofu's defaults serve
	// instead.
	if p := env["TF_CLI_CONFIG_FILE"]; p != "" {
		if _, err := os.Stat(p); err != nil {
			delete(env, "TF_CLI_CONFIG_FILE")
		}
	}
	env = tfexec.CleanEnv(env)
	if err := tf.SetEnv(env); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", dir, err)
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
	return &Workspace{dir: dir, binary: binary, env: env, grace: grace, tf: tf}, nil
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
