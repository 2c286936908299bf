package decryption

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	// Secret, when set, holds the only keys to decrypt with: those of the
	// Secret a Flux Kustomization's spec.decryption.secretRef names, as
	// kustomize-controller decrypts with that Secret's keys alone.
	// AgeKeyFile, the environment and the standard locations are then
	// not read.
	Secret *SecretKeys
}

// SecretKeys are the keys of a decryption Secret, read as
// kustomize-controller reads them: the value of every key ending in
// .agekey is age identities, of every key ending in .asc an armored
// OpenPGP key.
type SecretKeys struct {
	// Name names the Secret, as "Secret/<namespace>/<name>", for messages.
	Name string
	// Age is every .agekey value, one after the other.
	Age string
	// PGP are the .asc values, in the order of their keys.
	PGP [][]byte
}

// The extensions of a decryption Secret's keys, as kustomize-controller
// reads them.
const (
	SecretAgeExt = ".agekey"
	SecretPGPExt = ".asc"
)

// KeysOfSecret reads the keys of a decryption Secret's data (decoded). It
// also returns the Secret's keys that name a key service strata does not
// decrypt with (sops.vault-token, sops.aws-kms, sops.azure-kv,
// sops.gcp-kms), sorted, for a note.
func KeysOfSecret(name string, data map[string]string) (SecretKeys, []string) {
	sk := SecretKeys{Name: name}
	var unused []string
	for _, k := range slices.Sorted(maps.Keys(data)) {
		switch {
		case strings.HasSuffix(k, SecretAgeExt):
			sk.Age += strings.TrimSpace(data[k]) + "\n"
		case strings.HasSuffix(k, SecretPGPExt):
			sk.PGP = append(sk.PGP, []byte(data[k]))
		case slices.Contains(unreadServices, k):
			unused = append(unused, k)
		}
	}
	return sk, unused
}

// unreadServices are the keys of a decryption Secret that configure a key
// service other than age and OpenPGP, which strata does not decrypt with.
var unreadServices = []string{"sops.vault-token", "sops.aws-kms", "sops.azure-kv", "sops.gcp-kms"}

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
