package decryption

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKeysIdentity changes each key source in turn: each changes the
// identity, while a file gpg rewrites on every use does not.
func TestKeysIdentity(t *testing.T) {
	write := func(t *testing.T, p, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		same   bool
	}{
		{name: "--sops-age-key-file", change: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "flag.agekey"), "AGE-SECRET-KEY-2") }},
		{name: "$SOPS_AGE_KEY_FILE", change: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "env.agekey"), "AGE-SECRET-KEY-2") }},
		{name: "$SOPS_AGE_KEY", change: func(t *testing.T, dir string) { t.Setenv(EnvAgeKey, "AGE-SECRET-KEY-2") }},
		{name: "$XDG_CONFIG_HOME/sops/age/keys.txt", change: func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "xdg", "sops", "age", "keys.txt"), "AGE-SECRET-KEY-2")
		}},
		{name: "~/.config/sops/age/keys.txt", change: func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "home", ".config", "sops", "age", "keys.txt"), "AGE-SECRET-KEY-2")
		}},
		{name: "the gpg keyring", change: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "gnupg", "pubring.kbx"), "ring 2") }},
		{name: "a gpg private key", change: func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "gnupg", "private-keys-v1.d", "B.key"), "key B")
		}},
		{name: "gpg's random seed", same: true, change: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "gnupg", "random_seed"), "2") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "flag.agekey"), "AGE-SECRET-KEY-1")
			write(t, filepath.Join(dir, "env.agekey"), "AGE-SECRET-KEY-1")
			write(t, filepath.Join(dir, "gnupg", "pubring.kbx"), "ring 1")
			write(t, filepath.Join(dir, "gnupg", "random_seed"), "1")
			write(t, filepath.Join(dir, "gnupg", "private-keys-v1.d", "A.key"), "key A")
			t.Setenv(EnvAgeKeyFile, filepath.Join(dir, "env.agekey"))
			t.Setenv(EnvAgeKey, "")
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
			t.Setenv("HOME", filepath.Join(dir, "home"))
			t.Setenv("GNUPGHOME", filepath.Join(dir, "gnupg"))
			keys := Keys{AgeKeyFile: filepath.Join(dir, "flag.agekey")}
			before := keys.Identity()
			if again := keys.Identity(); again != before {
				t.Fatalf("Identity() = %s, then %s with nothing changed", before, again)
			}
			tt.change(t, dir)
			if after := keys.Identity(); (after == before) != tt.same {
				t.Errorf("Identity() after a change of %s = %s, before %s; want same %v", tt.name, after, before, tt.same)
			}
		})
	}
}
