package providers

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

func TestSigningKeySignsAndVerifies(t *testing.T) {
	key := testSigningKey(t)
	other := testSigningKey(t)
	doc := []byte("0123  terraform-provider-strata_0.1.0_linux_amd64.zip\n")
	sig, err := key.Sign(doc)
	if err != nil {
		t.Fatalf("Sign() = %v, want nil", err)
	}
	if bytes.HasPrefix(sig, []byte("-----")) {
		t.Errorf("Sign() = %q, want a binary signature", sig)
	}
	armored := armorSignature(t, sig)
	both, err := ParseKeyRing([]byte(other.PublicKey() + key.PublicKey()))
	if err != nil {
		t.Fatalf("ParseKeyRing(two keys) = %v, want nil", err)
	}

	tests := []struct {
		name    string
		ring    *KeyRing
		doc     []byte
		sig     []byte
		wantErr error
	}{
		{"binary", key.KeyRing(), doc, sig, nil},
		{"armored", key.KeyRing(), doc, armored, nil},
		{"one of several keys", both, doc, sig, nil},
		{"another document", key.KeyRing(), append(bytes.Clone(doc), 'x'), sig, ErrSignature},
		{"another key", other.KeyRing(), doc, sig, ErrSignature},
		{"no signature", key.KeyRing(), doc, nil, ErrSignature},
		{"garbage", key.KeyRing(), doc, []byte("not a signature"), ErrSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := tt.ring.Verify(tt.doc, tt.sig)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Verify() = %q, %v, want %v", id, err, tt.wantErr)
			}
			if err == nil && id != key.KeyID() {
				t.Errorf("Verify() = %q, want the key ID %q", id, key.KeyID())
			}
		})
	}
}

func TestSigningKeyRoundTrip(t *testing.T) {
	key := testSigningKey(t)
	if !regexp.MustCompile(`^[0-9A-F]{16}$`).MatchString(key.KeyID()) {
		t.Errorf("KeyID() = %q, want 16 upper-case hex digits", key.KeyID())
	}
	if !strings.HasPrefix(key.PublicKey(), "-----BEGIN PGP PUBLIC KEY BLOCK-----") {
		t.Errorf("PublicKey() = %q, want an armored public key", key.PublicKey())
	}
	data, err := key.MarshalPrivate()
	if err != nil {
		t.Fatalf("MarshalPrivate() = %v, want nil", err)
	}
	parsed, err := ParseSigningKey(data)
	if err != nil {
		t.Fatalf("ParseSigningKey(MarshalPrivate()) = %v, want nil", err)
	}
	if parsed.KeyID() != key.KeyID() || parsed.PublicKey() != key.PublicKey() {
		t.Errorf("ParseSigningKey(MarshalPrivate()) = key %q, want the same key %q with the same public key", parsed.KeyID(), key.KeyID())
	}
	sig, err := parsed.Sign([]byte("doc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := key.KeyRing().Verify([]byte("doc"), sig); err != nil {
		t.Errorf("Verify(signature of the parsed key) = %v, want nil", err)
	}
	ring, err := ParseKeyRing([]byte(key.PublicKey()))
	if err != nil {
		t.Fatalf("ParseKeyRing(PublicKey()) = %v, want nil", err)
	}
	if diff := cmp.Diff([]string{key.KeyID()}, ring.KeyIDs()); diff != "" {
		t.Errorf("ParseKeyRing(PublicKey()).KeyIDs() mismatch (-want +got):\n%s", diff)
	}
}

func TestParseSigningKeyRejects(t *testing.T) {
	key := testSigningKey(t)
	data, err := key.MarshalPrivate()
	if err != nil {
		t.Fatal(err)
	}
	protected := encryptedKey(t, data)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "no key found"},
		{"garbage", []byte("hello"), "OpenPGP key"},
		{"public key", []byte(key.PublicKey()), "is a public key"},
		{"passphrase", protected, "passphrase"},
		{"a signature block", []byte("-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n"), "want a public or private key block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSigningKey(tt.data)
			if !errors.Is(err, protocol.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseSigningKey(%q) = %v, want %v saying %q", tt.name, err, protocol.ErrInvalid, tt.want)
			}
		})
	}
}

// armorSignature armors a binary signature.
func armorSignature(t *testing.T, sig []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := armor.Encode(&b, "PGP SIGNATURE", nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(sig)
	w.Close()
	return b.Bytes()
}

// encryptedKey is the private key in data, protected by a passphrase.
func encryptedKey(t *testing.T, data []byte) []byte {
	t.Helper()
	el, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := el[0].EncryptPrivateKeys([]byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w, err := armor.Encode(&b, openpgp.PrivateKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := el[0].SerializePrivateWithoutSigning(w, nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return b.Bytes()
}
