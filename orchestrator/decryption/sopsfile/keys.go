package sopsfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	sopsage "github.com/getsops/sops/v3/age"

	"github.com/strata-iac/strata/orchestrator/decryption"
)

// CheckAgeKeyFile reads an age key file and reports whether it holds at
// least one age identity, parsed as sops parses it.
func CheckAgeKeyFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read age key file %s: %w", path, err)
	}
	var ids sopsage.ParsedIdentities
	if err := ids.Import(string(b)); err != nil {
		return fmt.Errorf("read age key file %s: %w", path, err)
	}
	if len(ids) == 0 {
		return fmt.Errorf("read age key file %s: it holds no age identity (AGE-SECRET-KEY-1…)", path)
	}
	return nil
}

// ageIdentities are the age identities found, with where they were looked
// for.
type ageIdentities struct {
	ids sopsage.ParsedIdentities
	// sources names every place looked at, found or not, for messages.
	sources []string
	// errs are the sources that exist but could not be read.
	errs []error
}

// loadAgeIdentities reads every age identity of keys, the environment and
// the standard locations, in that order; for the keys of a Secret, only
// those, which strata passes as $SOPS_AGE_KEY.
func loadAgeIdentities(keys decryption.Keys) ageIdentities {
	var a ageIdentities
	if keys.Secret != nil {
		a.sources = append(a.sources, "the "+decryption.SecretAgeExt+" keys of "+keys.Secret.Name)
		if err := a.ids.Import(os.Getenv(decryption.EnvAgeKey)); err != nil && strings.TrimSpace(os.Getenv(decryption.EnvAgeKey)) != "" {
			a.errs = append(a.errs, fmt.Errorf("%s: %w", keys.Secret.Name, err))
		}
		return a
	}
	fromFile := func(name, path string, required bool) {
		a.sources = append(a.sources, name)
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) && !required {
			return
		}
		if err == nil {
			err = a.ids.Import(string(b))
		}
		if err != nil {
			a.errs = append(a.errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	if keys.AgeKeyFile != "" {
		fromFile("--sops-age-key-file "+keys.AgeKeyFile, keys.AgeKeyFile, true)
	}
	if p := os.Getenv(decryption.EnvAgeKeyFile); p != "" {
		fromFile("$"+decryption.EnvAgeKeyFile+" ("+p+")", p, true)
	}
	a.sources = append(a.sources, "$"+decryption.EnvAgeKey)
	if k := os.Getenv(decryption.EnvAgeKey); k != "" {
		if err := a.ids.Import(k); err != nil {
			a.errs = append(a.errs, fmt.Errorf("$%s: %w", decryption.EnvAgeKey, err))
		}
	}
	for _, p := range decryption.UserKeyFiles() {
		fromFile(p, p, false)
	}
	return a
}
