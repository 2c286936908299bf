package decryption

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	sopsage "github.com/getsops/sops/v3/age"
)

// The environment variables sops reads age keys from.
const (
	// EnvAgeKeyFile names a file of age identities.
	EnvAgeKeyFile = "SOPS_AGE_KEY_FILE"
	// EnvAgeKey holds age identities.
	EnvAgeKey = "SOPS_AGE_KEY"
)

// userKeyFile is where sops looks for age identities under a user's
// configuration directory.
const userKeyFile = "sops/age/keys.txt"

// Keys says where the age identities are, beyond the environment and the
// standard locations.
type Keys struct {
	// AgeKeyFile is a file of age identities (--sops-age-key-file). Unlike
	// the standard locations, it must exist.
	AgeKeyFile string
}

type keysKey struct{}

// WithKeys returns ctx carrying keys.
func WithKeys(ctx context.Context, keys Keys) context.Context {
	return context.WithValue(ctx, keysKey{}, keys)
}

// KeysFrom returns the keys ctx carries; the zero Keys (the environment and
// the standard locations only) when it carries none.
func KeysFrom(ctx context.Context) Keys {
	k, _ := ctx.Value(keysKey{}).(Keys)
	return k
}

// CheckAgeKeyFile reads an age key file and reports whether it holds at
// least one age identity.
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
// the standard locations, in that order.
func loadAgeIdentities(keys Keys) ageIdentities {
	var a ageIdentities
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
	if p := os.Getenv(EnvAgeKeyFile); p != "" {
		fromFile("$"+EnvAgeKeyFile+" ("+p+")", p, true)
	}
	a.sources = append(a.sources, "$"+EnvAgeKey)
	if k := os.Getenv(EnvAgeKey); k != "" {
		if err := a.ids.Import(k); err != nil {
			a.errs = append(a.errs, fmt.Errorf("$%s: %w", EnvAgeKey, err))
		}
	}
	seen := map[string]bool{}
	var dirs []string
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		dirs = append(dirs, x)
	}
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".config"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, filepath.FromSlash(userKeyFile))
		if seen[p] {
			continue
		}
		seen[p] = true
		fromFile(p, p, false)
	}
	return a
}
