package decryption

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// Identity is a digest of every key a Decryptor of keys would read: the
// content of each age key file and of $SOPS_AGE_KEY, in the order
// loadAgeIdentities reads them, and every regular file of the gpg home
// ($GNUPGHOME, else ~/.gnupg) that holds keys; or, for keys of a Secret,
// those keys alone. Two calls return the same digest exactly
// when those are the same, so a result decrypted with the keys can be
// kept under it. Of the gpg home it hashes the keyrings and the private
// keys (pubring.kbx, pubring.gpg, secring.gpg, private-keys-v1.d/), not
// the files gpg rewrites on every use (random_seed, trustdb.gpg). It reveals nothing of the keys: it is a SHA-256 over
// them.
func (k Keys) Identity() string {
	h := sha256.New()
	if s := k.Secret; s != nil {
		fmt.Fprintf(h, "secret\x00%s\x00%d\x00%s", s.Name, len(s.Age), s.Age)
		for _, p := range s.PGP {
			fmt.Fprintf(h, "\x00%d\x00", len(p))
			h.Write(p)
		}
		return hex.EncodeToString(h.Sum(nil))
	}
	file := func(name, path string) {
		b, err := os.ReadFile(path)
		fmt.Fprintf(h, "%s\x00%s\x00%t\x00%d\x00", name, path, err == nil, len(b))
		h.Write(b)
	}
	if k.AgeKeyFile != "" {
		file("--sops-age-key-file", k.AgeKeyFile)
	}
	if p := os.Getenv(EnvAgeKeyFile); p != "" {
		file(EnvAgeKeyFile, p)
	}
	key := os.Getenv(EnvAgeKey)
	fmt.Fprintf(h, "%s\x00%d\x00%s", EnvAgeKey, len(key), key)
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		file("XDG_CONFIG_HOME", filepath.Join(x, filepath.FromSlash(userKeyFile)))
	}
	if home, err := os.UserHomeDir(); err == nil {
		file("home", filepath.Join(home, ".config", filepath.FromSlash(userKeyFile)))
	}
	if gpg := gpgHome(); gpg != "" {
		for _, name := range []string{"pubring.kbx", "pubring.gpg", "secring.gpg"} {
			file("gpg", filepath.Join(gpg, name))
		}
		keys, _ := os.ReadDir(filepath.Join(gpg, "private-keys-v1.d"))
		for _, e := range keys {
			if e.Type().IsRegular() {
				file("gpg", filepath.Join(gpg, "private-keys-v1.d", e.Name()))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// gpgHome is the gpg home directory sops reads the keyring of: $GNUPGHOME,
// else ~/.gnupg; "" when neither is known.
func gpgHome() string {
	if g := os.Getenv("GNUPGHOME"); g != "" {
		return g
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".gnupg")
	}
	return ""
}
