package decryption

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKeysOfSecret reads a decryption Secret's data as kustomize-controller
// reads it: every *.agekey value is age identities, every *.asc value an
// OpenPGP key, the other key services are named, and other keys ignored.
func TestKeysOfSecret(t *testing.T) {
	tests := []struct {
		name       string
		data       map[string]string
		want       SecretKeys
		wantUnread []string
	}{
		{
			name: "age and OpenPGP",
			data: map[string]string{"b.agekey": "AGE-SECRET-KEY-B\n", "a.agekey": "AGE-SECRET-KEY-A", "pgp.asc": "-----BEGIN PGP-----", "README": "not a key"},
			want: SecretKeys{Name: "Secret/ns/keys", Age: "AGE-SECRET-KEY-A\nAGE-SECRET-KEY-B\n", PGP: [][]byte{[]byte("-----BEGIN PGP-----")}},
		},
		{
			name:       "key services strata does not decrypt with",
			data:       map[string]string{"sops.vault-token": "t", "sops.aws-kms": "k", "sops.gcp-kms": "g", "sops.azure-kv": "a"},
			want:       SecretKeys{Name: "Secret/ns/keys"},
			wantUnread: []string{"sops.aws-kms", "sops.azure-kv", "sops.gcp-kms", "sops.vault-token"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, unread := KeysOfSecret("Secret/ns/keys", tt.data)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("KeysOfSecret(%q) keys mismatch (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.wantUnread, unread); diff != "" {
				t.Errorf("KeysOfSecret(%q) unread mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestIdentityOfSecretKeys: the keys of a Secret have their own identity,
// which changes with them and not with the machine's keys.
func TestIdentityOfSecretKeys(t *testing.T) {
	a := Keys{Secret: &SecretKeys{Name: "Secret/ns/keys", Age: "AGE-SECRET-KEY-A\n"}}
	b := Keys{Secret: &SecretKeys{Name: "Secret/ns/keys", Age: "AGE-SECRET-KEY-B\n"}}
	if a.Identity() == b.Identity() {
		t.Errorf("Identity() of two Secrets' keys = %s for both, want them apart", a.Identity())
	}
	if a.Identity() == (Keys{}).Identity() {
		t.Errorf("Identity() of a Secret's keys = the machine's, want them apart")
	}
	before := a.Identity()
	t.Setenv(EnvAgeKey, "AGE-SECRET-KEY-OTHER")
	if got := a.Identity(); got != before {
		t.Errorf("Identity() of a Secret's keys = %s after $%s changed, want %s as before", got, EnvAgeKey, before)
	}
}
