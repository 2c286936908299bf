package tofu

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"

	"github.com/Masterminds/semver/v3"
)

// MinVersion is the oldest tofu strata runs: every flag it passes exists
// there (`plan -json` came with 0.15.3), and OpenTofu's first release is
// newer still.
const MinVersion = "0.15.3"

// versions caches each binary's version for the life of the process, so
// that `tofu version -json` runs once per binary, not once per stack. A
// binary replaced on disk (another size or modification time) is asked
// again.
var versions = struct {
	sync.Mutex
	byFile map[versionKey]string
}{byFile: map[versionKey]string{}}

type versionKey struct {
	path  string
	size  int64
	mtime int64
}

// Version returns the version of the tofu binary, as `tofu version -json`
// reports it. The binary is asked once; later calls are answered from
// memory, and, when file names a version file (see versionEntry), later
// processes from the file.
func Version(ctx context.Context, binary, file string) (string, error) {
	fi, err := os.Stat(binary)
	if err != nil {
		return "", fmt.Errorf("tofu version %s: %w", binary, err)
	}
	key := versionKey{path: binary, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	versions.Lock()
	defer versions.Unlock()
	if v, ok := versions.byFile[key]; ok {
		return v, nil
	}
	if v, ok := readVersionFile(file, key); ok {
		versions.byFile[key] = v
		return v, nil
	}
	cmd := exec.CommandContext(ctx, binary, "version", "-json")
	cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("tofu version %s: %w", binary, err)
	}
	v, err := parseVersion(out)
	if err != nil {
		return "", fmt.Errorf("tofu version %s: %w", binary, err)
	}
	if err := writeVersionFile(file, key, v); err != nil {
		return "", fmt.Errorf("tofu version %s: %w", binary, err)
	}
	versions.byFile[key] = v
	return v, nil
}

// parseVersion reads `tofu version -json`.
func parseVersion(data []byte) (string, error) {
	var out struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return "", fmt.Errorf("parse version json: %w", err)
	}
	if out.Version == "" {
		return "", fmt.Errorf("parse version json: no terraform_version")
	}
	return out.Version, nil
}

// checkVersion fails when the workspace's tofu is older than MinVersion.
func (w *Workspace) checkVersion(ctx context.Context) error {
	v, err := Version(ctx, w.binary, w.versionFile)
	if err != nil {
		return err
	}
	return compatible(w.binary, v)
}

// compatible says plainly when version is older than MinVersion.
func compatible(binary, version string) error {
	got, err := semver.NewVersion(version)
	if err != nil {
		return fmt.Errorf("tofu %s reports version %q, which is not a version: %w", binary, version, err)
	}
	if got.LessThan(semver.MustParse(MinVersion)) {
		return fmt.Errorf("tofu %s is version %s; strata needs %s or newer: pass --tofu with a newer one, or run `make tofu`", binary, version, MinVersion)
	}
	return nil
}
