package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-iac/strata/internal/atomicfile"
	"github.com/strata-iac/strata/internal/cliconfig"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// stackCLIConfigName is the file, in a workspace's .terraform directory,
// of the stack's own tofu CLI configuration (spec.cliConfigSecretRef
// merged with strata's): kept there, out of the module's directory that
// every run clears, and out of every plan file.
const stackCLIConfigName = "strata-cli.tfrc"

// cliConfig returns the CLI configuration file tofu runs the stack in dir
// with: "" for the shared one (openTofu writes it), or, for a stack with
// its own (spec.cliConfigSecretRef), the two merged into a file of the
// workspace that only its owner reads. What the stack's configuration
// replaces of strata's (a provider_installation block of its own, and so
// the provider mirror) is logged, once per run, on log when it is not
// nil.
func (r *Runner) cliConfig(dir string, own *environment.CLIConfig, log *slog.Logger) (string, error) {
	if own == nil {
		// One that a past spec left goes: its credentials with it.
		if err := os.Remove(filepath.Join(dir, ".terraform", stackCLIConfigName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", nil
	}
	strata, err := r.ownCLIConfig()
	if err != nil {
		return "", err
	}
	merged, dropped, err := cliconfig.Merge(own.Text, strata)
	if err != nil {
		// The parser's message quotes positions, never the text.
		return "", fmt.Errorf("read the %s: %w", own, err)
	}
	if log != nil && len(dropped) > 0 {
		log.Warn(fmt.Sprintf("the %s sets %s, which replaces strata's own for this stack (the plugin cache stays strata's)",
			own, strings.Join(dropped, ", ")))
	}
	dir, err = filepath.Abs(filepath.Join(dir, ".terraform"))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, stackCLIConfigName)
	if err := writeChanged(path, merged); err != nil {
		return "", err
	}
	return path, nil
}

// writeCLIConfig writes the tofu CLI configuration every run shares: the
// shared plugin cache, and the provider mirror when there is one. Once a
// provider is in the cache and the workspace's lock file records it, no
// run downloads it again.
func (r *Runner) writeCLIConfig() (string, error) {
	body, err := r.ownCLIConfig()
	if err != nil {
		return "", err
	}
	path := filepath.Join(r.cfg.StateDir, cliConfigName)
	r.cliConfigMu.Lock()
	defer r.cliConfigMu.Unlock()
	if err := writeChanged(path, body); err != nil {
		return "", err
	}
	return filepath.Abs(path)
}

// ownCLIConfig is strata's own CLI configuration: the shared plugin cache
// (made when missing) and the provider mirror.
func (r *Runner) ownCLIConfig() (string, error) {
	cache, err := filepath.Abs(filepath.Join(r.cfg.StateDir, pluginCacheName))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return "", err
	}
	return tofu.CLIConfig(r.cfg.ProviderMirror, cache), nil
}

// writeChanged writes body to path, readable by its owner only, unless
// the file already holds it.
func writeChanged(path, body string) error {
	if b, err := os.ReadFile(path); err == nil && string(b) == body {
		return nil
	}
	return atomicfile.Write(path, []byte(body), 0o600)
}

// leftCLIConfig is the CLI configuration that the last run of the stack in
// dir left in its workspace, for a stack that left the environment with
// its spec: "" (the shared one) when it had none of its own.
func leftCLIConfig(dir string) string {
	path, err := filepath.Abs(filepath.Join(dir, ".terraform", stackCLIConfigName))
	if err != nil {
		return ""
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return path
}

// leftCloud reports whether the module the last run of the stack in dir
// left in its workspace keeps its state in a cloud block.
func leftCloud(dir string) bool {
	d, err := readDeclared(dir)
	return err == nil && d.cloud
}
