package decryption

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/sopstest"
)

// isolate clears every age key source of the environment, so that a test
// sees only the keys it gives.
func isolate(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv(EnvAgeKeyFile, "")
	t.Setenv(EnvAgeKey, "")
	sopstest.Helper(t)
}

const secretYAML = `apiVersion: v1
kind: Secret
metadata:
  name: credentials
  namespace: flux-system
type: Opaque
stringData:
  api_token: s3cr3t-token
data:
  password: aHVudGVyMg==
`

// encryptedSecret returns secretYAML encrypted for r, as a map.
func encryptedSecret(t *testing.T, r sopstest.Recipients) map[string]any {
	t.Helper()
	enc := sopstest.Encrypt(t, "secret.yaml", []byte(secretYAML), r, sopstest.KubernetesRegex)
	if strings.Contains(string(enc), "s3cr3t-token") {
		t.Fatalf("the encrypted Secret holds its value:\n%s", enc)
	}
	var m map[string]any
	if err := yaml.Unmarshal(enc, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func plainSecret(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(secretYAML), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestObjectAge(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	obj := encryptedSecret(t, sopstest.Recipients{Age: []string{key.Recipient}})
	if !IsEncrypted(obj) {
		t.Fatalf("IsEncrypted(encrypted Secret) = false, want true")
	}
	if IsEncrypted(plainSecret(t)) {
		t.Fatalf("IsEncrypted(plain Secret) = true, want false")
	}
	file := key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))
	got, err := New(t.Context(), Keys{AgeKeyFile: file}).Object(obj)
	if err != nil {
		t.Fatalf("Object(encrypted Secret) = %v", err)
	}
	if diff := cmp.Diff(plainSecret(t), got); diff != "" {
		t.Errorf("Object(encrypted Secret) mismatch (-want +got):\n%s", diff)
	}
}

// TestAgeKeySources decrypts with the key in each place strata looks.
func TestAgeKeySources(t *testing.T) {
	tests := []struct {
		name string
		// place puts the identity where the test looks, and returns the
		// Keys to decrypt with.
		place func(t *testing.T, k sopstest.AgeKey) Keys
	}{
		{"--sops-age-key-file", func(t *testing.T, k sopstest.AgeKey) Keys {
			return Keys{AgeKeyFile: k.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))}
		}},
		{"SOPS_AGE_KEY_FILE", func(t *testing.T, k sopstest.AgeKey) Keys {
			t.Setenv(EnvAgeKeyFile, k.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt")))
			return Keys{}
		}},
		{"SOPS_AGE_KEY", func(t *testing.T, k sopstest.AgeKey) Keys {
			t.Setenv(EnvAgeKey, k.Identity)
			return Keys{}
		}},
		{"XDG_CONFIG_HOME", func(t *testing.T, k sopstest.AgeKey) Keys {
			x := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", x)
			k.WriteKeyFile(t, filepath.Join(x, "sops", "age", "keys.txt"))
			return Keys{}
		}},
		{"~/.config", func(t *testing.T, k sopstest.AgeKey) Keys {
			h := t.TempDir()
			t.Setenv("HOME", h)
			k.WriteKeyFile(t, filepath.Join(h, ".config", "sops", "age", "keys.txt"))
			return Keys{}
		}},
		{"one of several", func(t *testing.T, k sopstest.AgeKey) Keys {
			t.Setenv(EnvAgeKey, sopstest.NewAgeKey(t).Identity)
			return Keys{AgeKeyFile: k.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			key := sopstest.NewAgeKey(t)
			obj := encryptedSecret(t, sopstest.Recipients{Age: []string{key.Recipient}})
			got, err := New(t.Context(), tt.place(t, key)).Object(obj)
			if err != nil {
				t.Fatalf("Object(encrypted Secret) = %v, want the Secret", err)
			}
			if diff := cmp.Diff(plainSecret(t), got); diff != "" {
				t.Errorf("Object(encrypted Secret) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestObjectPGP(t *testing.T) {
	isolate(t)
	fpr := sopstest.NewPGPKey(t)
	obj := encryptedSecret(t, sopstest.Recipients{PGP: []string{fpr}})
	got, err := New(t.Context(), Keys{}).Object(obj)
	if err != nil {
		t.Fatalf("Object(Secret encrypted for pgp %s) = %v", fpr, err)
	}
	if diff := cmp.Diff(plainSecret(t), got); diff != "" {
		t.Errorf("Object(encrypted Secret) mismatch (-want +got):\n%s", diff)
	}
}

// TestMissingKey: a Secret encrypted for keys strata does not have is a
// *KeyError naming them, and holds no value.
func TestMissingKey(t *testing.T) {
	isolate(t)
	theirs := sopstest.NewAgeKey(t)
	mine := sopstest.NewAgeKey(t)
	obj := encryptedSecret(t, sopstest.Recipients{Age: []string{theirs.Recipient}})
	_, err := New(t.Context(), Keys{AgeKeyFile: mine.WriteKeyFile(t, filepath.Join(t.TempDir(), "mine.txt"))}).Object(obj)
	var ke *KeyError
	if !errors.As(err, &ke) {
		t.Fatalf("Object(Secret for another key) = %v, want a *KeyError", err)
	}
	if diff := cmp.Diff([]string{"age " + theirs.Recipient}, ke.Recipients); diff != "" {
		t.Errorf("KeyError.Recipients mismatch (-want +got):\n%s", diff)
	}
	for _, want := range []string{theirs.Recipient, "--sops-age-key-file", "$SOPS_AGE_KEY", "sops/age/keys.txt"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Object(Secret for another key) = %q, want it to name %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), mine.Identity) {
		t.Errorf("Object(Secret for another key) = %q: it holds a secret", err)
	}
}

// TestKeyFileProblems: a key file given that cannot be read is named in
// the error.
func TestKeyFileProblems(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	obj := encryptedSecret(t, sopstest.Recipients{Age: []string{key.Recipient}})
	missing := filepath.Join(t.TempDir(), "missing.txt")
	_, err := New(t.Context(), Keys{AgeKeyFile: missing}).Object(obj)
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Object with --sops-age-key-file %s = %v, want an error naming the missing file", missing, err)
	}
	if err := CheckAgeKeyFile(t.Context(), missing); err == nil {
		t.Errorf("CheckAgeKeyFile(%q) = nil, want an error", missing)
	}
	if err := CheckAgeKeyFile(t.Context(), key.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))); err != nil {
		t.Errorf("CheckAgeKeyFile(key file) = %v, want nil", err)
	}
}

// TestValue decrypts files as a secretGenerator reads them or a generated
// Secret holds them, into the format their name says.
func TestValue(t *testing.T) {
	isolate(t)
	key := sopstest.NewAgeKey(t)
	r := sopstest.Recipients{Age: []string{key.Recipient}}
	d := New(t.Context(), Keys{AgeKeyFile: key.WriteKeyFile(t, filepath.Join(t.TempDir(), "k.txt"))})
	tests := []struct {
		name  string
		plain string
		// as is the name the value is decrypted under.
		as   string
		want string
	}{
		{name: "app.env", plain: "USER=admin\nPASSWORD=hunter2\n", as: "app.env", want: "USER=admin\nPASSWORD=hunter2\n"},
		{name: "config.json", plain: `{"password":"hunter2"}`, as: "config.json", want: "{\n\t\"password\": \"hunter2\"\n}\n"},
		{name: "config.yaml", plain: "password: hunter2\n", as: "config.yaml", want: "password: hunter2\n"},
		{name: "token", plain: "hunter2", as: "token", want: "hunter2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := sopstest.Encrypt(t, tt.name, []byte(tt.plain), r, "")
			if !Encrypted(enc) {
				t.Fatalf("Encrypted(%s encrypted) = false, want true", tt.name)
			}
			got, ok, err := d.Value(enc, tt.as)
			if err != nil || !ok {
				t.Fatalf("Value(%s) = %v, %v", tt.name, ok, err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Value(%s) mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
	got, ok, err := d.Value([]byte("plain: value\n"), "plain.yaml")
	if ok || err != nil || string(got) != "plain: value\n" {
		t.Errorf("Value(plain file) = %q, %v, %v, want it unchanged, false, nil", got, ok, err)
	}
}

func TestKeysFromContext(t *testing.T) {
	ctx := WithKeys(t.Context(), Keys{AgeKeyFile: "/k.txt"})
	if got := KeysFrom(ctx); got.AgeKeyFile != "/k.txt" {
		t.Errorf("KeysFrom(WithKeys(/k.txt)) = %+v, want /k.txt", got)
	}
	if got := KeysFrom(t.Context()); got != (Keys{}) {
		t.Errorf("KeysFrom(empty) = %+v, want the zero Keys", got)
	}
}
