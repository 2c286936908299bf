package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/providers"
)

func TestMirrorSigningKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key.asc")
	out, errOut := checkRun(t, []string{"mirror", "signing-key", path, "--name", "acme registry"}, 0,
		[]string{"-----BEGIN PGP PUBLIC KEY BLOCK-----"}, []string{"wrote the private key", path})
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("signing key mode = %v, want 0600", info.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key, err := providers.ParseSigningKey(data)
	if err != nil {
		t.Fatalf("ParseSigningKey(%s) = %v, want nil", path, err)
	}
	if key.PublicKey() != out || !strings.Contains(errOut, key.KeyID()) {
		t.Errorf("strata mirror signing-key printed %q and %q, want the public key and the ID %s", out, errOut, key.KeyID())
	}
	checkRun(t, []string{"mirror", "signing-key", path}, 1, nil, []string{"file exists"})
}
