package sopsfile

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/orchestrator/decryption"
)

// FuzzValue feeds arbitrary bytes to the decryption of a value: it must
// return an error or a value, never panic, and an error must never quote
// the input.
func FuzzValue(f *testing.F) {
	f.Setenv("HOME", f.TempDir())
	f.Setenv("XDG_CONFIG_HOME", "")
	f.Setenv(decryption.EnvAgeKeyFile, "")
	f.Setenv(decryption.EnvAgeKey, "")
	key := sopstest.NewAgeKey(f)
	r := sopstest.Recipients{Age: []string{key.Recipient}}
	f.Add(sopstest.Encrypt(f, "a.yaml", []byte("password: hunter2\n"), r, ""), "a.yaml")
	f.Add(sopstest.Encrypt(f, "a.env", []byte("PASSWORD=hunter2\n"), r, ""), "a.env")
	f.Add(sopstest.Encrypt(f, "a.json", []byte(`{"password":"hunter2"}`), r, ""), "a")
	f.Add([]byte("mac: ENC[AES256_GCM,data:x]"), "b.yaml")
	f.Add([]byte("[sops]\nmac = ENC[x]"), "c.ini")
	d := New(decryption.Keys{AgeKeyFile: key.WriteKeyFile(f, filepath.Join(f.TempDir(), "k.txt"))})
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		_, _, err := d.Value(b, name)
		if err != nil && len(b) > 16 && strings.Contains(err.Error(), string(b)) {
			t.Errorf("Value(%q) = %v: the error quotes the input", b, err)
		}
	})
}
