package decryption

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// CheckAgeKeyFile reports whether an age key file can be read and holds
// at least one age identity, as sops parses it: strata-sops reads it.
func CheckAgeKeyFile(ctx context.Context, path string) error {
	helper, err := FindHelper()
	if err != nil {
		return fmt.Errorf("check age key file %s: %w", path, err)
	}
	cmd := exec.CommandContext(ctx, helper, "check-age-key-file", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() == 1 && stderr.Len() > 0:
		// strata-sops says what is wrong with the file on one line.
		return errors.New(strings.TrimSpace(stderr.String()))
	}
	return fmt.Errorf("check age key file %s: %s: %w %s", path, helper, err, strings.TrimSpace(stderr.String()))
}
