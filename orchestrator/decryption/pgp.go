package decryption

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// importPGP imports the OpenPGP keys of a decryption Secret into a new gpg
// home, as kustomize-controller imports them, and returns its directory.
// sops decrypts OpenPGP with gpg, which reads its keys from there.
func importPGP(ctx context.Context, s *SecretKeys) (string, error) {
	dir, err := os.MkdirTemp("", "strata-gnupg-")
	if err != nil {
		return "", fmt.Errorf("import the OpenPGP keys of %s: %w", s.Name, err)
	}
	for i, key := range s.PGP {
		cmd := exec.CommandContext(ctx, "gpg", "--batch", "--homedir", dir, "--import")
		cmd.Stdin = bytes.NewReader(key)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			removeGnuPGHome(dir)
			return "", fmt.Errorf("import OpenPGP key %d of %s with gpg: %w: %s", i+1, s.Name, err, strings.TrimSpace(lastLine(stderr.String())))
		}
	}
	return dir, nil
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// removeGnuPGHome ends the gpg agent a gpg home started and removes it.
func removeGnuPGHome(dir string) {
	_ = exec.Command("gpgconf", "--homedir", dir, "--kill", "gpg-agent").Run()
	_ = os.RemoveAll(dir)
}

// removeGnuPGHome removes the helper's gpg home, if it has one.
func (h *helper) removeGnuPGHome() {
	if h.gnupgHome != "" {
		removeGnuPGHome(h.gnupgHome)
		h.gnupgHome = ""
	}
}
