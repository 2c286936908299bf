package decryption

import (
	"context"
	"os"
	"path/filepath"
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

// UserKeyFiles are the standard locations of age key files, each once, in
// the order they are read: $XDG_CONFIG_HOME/sops/age/keys.txt (when
// $XDG_CONFIG_HOME is absolute), then ~/.config/sops/age/keys.txt.
func UserKeyFiles() []string {
	var dirs, out []string
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		dirs = append(dirs, x)
	}
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".config"))
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		p := filepath.Join(d, filepath.FromSlash(userKeyFile))
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
