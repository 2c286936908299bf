package sopstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"
	"github.com/getsops/sops/v3"
	"github.com/getsops/sops/v3/aes"
	sopsage "github.com/getsops/sops/v3/age"
	"github.com/getsops/sops/v3/cmd/sops/common"
	"github.com/getsops/sops/v3/cmd/sops/formats"
	"github.com/getsops/sops/v3/config"
	"github.com/getsops/sops/v3/keyservice"
	"github.com/getsops/sops/v3/pgp"
	"github.com/getsops/sops/v3/version"
)

// KubernetesRegex is the encrypted_regex Flux's guide gives sops for
// Kubernetes Secrets: only data and stringData are encrypted.
const KubernetesRegex = "^(data|stringData)$"

// AgeKey is a fresh age identity.
type AgeKey struct {
	// Recipient is the public key, age1….
	Recipient string
	// Identity is the private key, AGE-SECRET-KEY-1….
	Identity string
}

// NewAgeKey generates an age identity.
func NewAgeKey(t testing.TB) AgeKey {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatalf("age.GenerateX25519Identity() = %v", err)
	}
	return AgeKey{Recipient: id.Recipient().String(), Identity: id.String()}
}

// WriteKeyFile writes the identity to a keys.txt in the format age-keygen
// writes, and returns its path.
func (k AgeKey) WriteKeyFile(t testing.TB, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	body := "# created: 2026-11-30T00:00:00Z\n# public key: " + k.Recipient + "\n" + k.Identity + "\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// NewPGPKey generates an OpenPGP key without a passphrase in a fresh gpg
// home, points $GNUPGHOME at it for the rest of the test, and returns the
// key's fingerprint. It skips the test when gpg is not installed.
func NewPGPKey(t testing.TB) string {
	t.Helper()
	gpg, err := exec.LookPath("gpg")
	if err != nil {
		t.Skip("gpg is not installed")
	}
	// gpg-agent's socket path must be short: use a directory under /tmp.
	home, err := os.MkdirTemp("", "gpg")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GNUPGHOME", home)
	t.Cleanup(func() {
		_ = exec.Command("gpgconf", "--homedir", home, "--kill", "all").Run()
		_ = os.RemoveAll(home)
	})
	out, err := exec.Command(gpg, "--homedir", home, "--batch", "--passphrase", "", "--quick-gen-key", "strata test <test@strata.invalid>", "rsa2048", "encr,sign", "never").CombinedOutput()
	if err != nil {
		t.Fatalf("gpg --quick-gen-key = %v\n%s", err, out)
	}
	out, err = exec.Command(gpg, "--homedir", home, "--batch", "--with-colons", "--list-secret-keys").Output()
	if err != nil {
		t.Fatalf("gpg --list-secret-keys = %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, ":"); len(f) > 9 && f[0] == "fpr" {
			return f[9]
		}
	}
	t.Fatalf("gpg --list-secret-keys lists no fingerprint:\n%s", out)
	return ""
}

// Recipients are the keys a file is encrypted for.
type Recipients struct {
	Age []string
	PGP []string
}

// Encrypt encrypts a plain file of the format its name implies (.yaml,
// .json, .env, .ini, else binary) for the recipients, as `sops encrypt`
// does. regex, when set, is the encrypted_regex: only the keys it matches
// are encrypted.
func Encrypt(t testing.TB, name string, plain []byte, r Recipients, regex string) []byte {
	t.Helper()
	store := common.StoreForFormat(formats.FormatForPath(name), config.NewStoresConfig())
	branches, err := store.LoadPlainFile(plain)
	if err != nil {
		t.Fatalf("sops load plain %s: %v", name, err)
	}
	var group sops.KeyGroup
	for _, a := range r.Age {
		k, err := sopsage.MasterKeyFromRecipient(a)
		if err != nil {
			t.Fatalf("age recipient %s: %v", a, err)
		}
		group = append(group, k)
	}
	for _, fp := range r.PGP {
		group = append(group, pgp.NewMasterKeyFromFingerprint(fp))
	}
	tree := sops.Tree{Branches: branches, Metadata: sops.Metadata{
		KeyGroups:      []sops.KeyGroup{group},
		EncryptedRegex: regex,
		Version:        version.Version,
	}}
	dataKey, errs := tree.GenerateDataKeyWithKeyServices([]keyservice.KeyServiceClient{keyservice.NewLocalClient()})
	if len(errs) > 0 {
		t.Fatalf("sops data key for %s: %v", name, errs)
	}
	if err := common.EncryptTree(common.EncryptTreeOpts{DataKey: dataKey, Tree: &tree, Cipher: aes.NewCipher()}); err != nil {
		t.Fatalf("sops encrypt %s: %v", name, err)
	}
	out, err := store.EmitEncryptedFile(tree)
	if err != nil {
		t.Fatalf("sops emit %s: %v", name, err)
	}
	return out
}

// EncryptFile encrypts a file in place (see Encrypt).
func EncryptFile(t testing.TB, path string, r Recipients, regex string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, Encrypt(t, path, b, r, regex), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Decrypt decrypts a sops-encrypted file of the given format ("yaml",
// "json", "dotenv", "binary") as kustomize-controller does, with sops'
// own local key service and the keys of the environment
// ($SOPS_AGE_KEY_FILE, …) and without the MAC check: the tests' reference
// for what strata decrypts.
func Decrypt(t testing.TB, data []byte, format string) []byte {
	t.Helper()
	f := formats.FormatFromString(format)
	store := common.StoreForFormat(f, config.NewStoresConfig())
	tree, err := store.LoadEncryptedFile(data)
	if err != nil {
		t.Fatalf("sops load encrypted %s: %v", format, err)
	}
	key, err := tree.Metadata.GetDataKey()
	if err != nil {
		t.Fatalf("sops data key: %v", err)
	}
	if _, err := tree.Decrypt(key, aes.NewCipher()); err != nil {
		t.Fatalf("sops decrypt: %v", err)
	}
	out, err := store.EmitPlainFile(tree.Branches)
	if err != nil {
		t.Fatalf("sops emit plain %s: %v", format, err)
	}
	return out
}
