package providers

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// ErrSignature is wrapped when a SHA256SUMS file is not signed by one of
// the keys it is checked against.
var ErrSignature = errors.New("bad signature")

// SigningKey is an OpenPGP private key that signs the SHA256SUMS files a
// [Server] serves over the Provider Registry Protocol. tofu checks that
// signature against the public key the registry names beside each package
// ([SigningKey.PublicKey]), and installs nothing from a registry other
// than registry.opentofu.org without a valid one.
type SigningKey struct {
	entity *openpgp.Entity
	public string
}

// GenerateSigningKey makes a new signing key, an Ed25519 OpenPGP key (a
// version 4 key, which every tofu verifies) that does not expire, with
// name as its user ID.
func GenerateSigningKey(name string) (*SigningKey, error) {
	e, err := openpgp.NewEntity(name, "", "", &packet.Config{
		Algorithm:   packet.PubKeyAlgoEdDSA,
		Curve:       packet.Curve25519,
		DefaultHash: crypto.SHA256,
	})
	if err != nil {
		return nil, fmt.Errorf("generate signing key %q: %w", name, err)
	}
	return newSigningKey(e)
}

// ParseSigningKey reads a private key, armored (-----BEGIN PGP PRIVATE
// KEY BLOCK-----) or binary, that is not protected by a passphrase. The
// first key of the data signs.
func ParseSigningKey(data []byte) (*SigningKey, error) {
	entities, err := readKeys(data)
	if err != nil {
		return nil, fmt.Errorf("parse signing key: %w", err)
	}
	e := entities[0]
	if e.PrivateKey == nil {
		return nil, fmt.Errorf("parse signing key: %w: the key %s is a public key, want its private key", protocol.ErrInvalid, e.PrimaryKey.KeyIdString())
	}
	k, err := newSigningKey(e)
	if err != nil {
		return nil, fmt.Errorf("parse signing key: %w", err)
	}
	return k, nil
}

// newSigningKey checks that e can sign, and keeps its armored public key.
func newSigningKey(e *openpgp.Entity) (*SigningKey, error) {
	key, ok := e.SigningKey(time.Now())
	if !ok || key.PrivateKey == nil {
		return nil, fmt.Errorf("%w signing key %s: it has no usable signing key (expired or revoked?)", protocol.ErrInvalid, e.PrimaryKey.KeyIdString())
	}
	if key.PrivateKey.Encrypted {
		return nil, fmt.Errorf("%w signing key %s: it is protected by a passphrase; export it without one", protocol.ErrInvalid, e.PrimaryKey.KeyIdString())
	}
	var b strings.Builder
	w, err := armor.Encode(&b, openpgp.PublicKeyType, nil)
	if err != nil {
		return nil, err
	}
	if err := e.Serialize(w); err != nil {
		return nil, fmt.Errorf("export public key %s: %w", e.PrimaryKey.KeyIdString(), err)
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return &SigningKey{entity: e, public: b.String() + "\n"}, nil
}

// KeyID is the key's ID, 16 upper-case hex digits, as the Provider
// Registry Protocol names it in key_id.
func (k *SigningKey) KeyID() string { return k.entity.PrimaryKey.KeyIdString() }

// PublicKey is the armored public key, as the Provider Registry Protocol
// gives it in ascii_armor.
func (k *SigningKey) PublicKey() string { return k.public }

// KeyRing is the public key alone, to check signatures with.
func (k *SigningKey) KeyRing() *KeyRing {
	return &KeyRing{entities: openpgp.EntityList{k.entity}}
}

// MarshalPrivate returns the armored private key, unprotected, to be kept
// in a file that [ParseSigningKey] reads.
func (k *SigningKey) MarshalPrivate() ([]byte, error) {
	var b bytes.Buffer
	w, err := armor.Encode(&b, openpgp.PrivateKeyType, nil)
	if err != nil {
		return nil, err
	}
	if err := k.entity.SerializePrivateWithoutSigning(w, nil); err != nil {
		return nil, fmt.Errorf("export signing key %s: %w", k.KeyID(), err)
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// Sign returns a detached binary signature of doc, the form the Provider
// Registry Protocol serves at shasums_signature_url.
func (k *SigningKey) Sign(doc []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := openpgp.DetachSign(&b, k.entity, bytes.NewReader(doc), &packet.Config{DefaultHash: crypto.SHA256}); err != nil {
		return nil, fmt.Errorf("sign with key %s: %w", k.KeyID(), err)
	}
	return b.Bytes(), nil
}

// KeyRing holds OpenPGP public keys that signatures are checked against.
type KeyRing struct {
	entities openpgp.EntityList
}

// ParseKeyRing reads one or more public (or private) keys: armored
// blocks, one after the other, or binary keys.
func ParseKeyRing(data []byte) (*KeyRing, error) {
	entities, err := readKeys(data)
	if err != nil {
		return nil, fmt.Errorf("parse public keys: %w", err)
	}
	return &KeyRing{entities: entities}, nil
}

// KeyIDs are the IDs of the ring's keys, 16 upper-case hex digits each.
func (r *KeyRing) KeyIDs() []string {
	ids := make([]string, len(r.entities))
	for i, e := range r.entities {
		ids[i] = e.PrimaryKey.KeyIdString()
	}
	return ids
}

// Verify checks that sig, a detached signature (binary, as the Provider
// Registry Protocol serves it, or armored), is a valid signature of doc by
// one of the ring's keys, and returns that key's ID. The error wraps
// [ErrSignature] when it is not.
func (r *KeyRing) Verify(doc, sig []byte) (keyID string, err error) {
	check := openpgp.CheckDetachedSignature
	if bytes.HasPrefix(bytes.TrimSpace(sig), []byte("-----BEGIN PGP SIGNATURE-----")) {
		check = openpgp.CheckArmoredDetachedSignature
	}
	signer, err := check(r.entities, bytes.NewReader(doc), bytes.NewReader(sig), nil)
	if err != nil {
		return "", fmt.Errorf("%w: not a valid signature by key %s: %w", ErrSignature, strings.Join(r.KeyIDs(), ", "), err)
	}
	return signer.PrimaryKey.KeyIdString(), nil
}

// readKeys reads the keys in data: armored blocks, or binary packets.
func readKeys(data []byte) (openpgp.EntityList, error) {
	if !bytes.Contains(data, []byte("-----BEGIN PGP")) {
		entities, err := openpgp.ReadKeyRing(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%w OpenPGP key: %w", protocol.ErrInvalid, err)
		}
		if len(entities) == 0 {
			return nil, fmt.Errorf("%w OpenPGP key: no key found", protocol.ErrInvalid)
		}
		return entities, nil
	}
	// A block's decoder reads past its end: decode each block on its own.
	const begin = "-----BEGIN PGP"
	var all openpgp.EntityList
	chunks := bytes.Split(data, []byte(begin))
	for _, chunk := range chunks[1:] {
		block, err := armor.Decode(io.MultiReader(strings.NewReader(begin), bytes.NewReader(chunk)))
		if err != nil {
			return nil, fmt.Errorf("%w armored OpenPGP key: %w", protocol.ErrInvalid, err)
		}
		if block.Type != openpgp.PublicKeyType && block.Type != openpgp.PrivateKeyType {
			return nil, fmt.Errorf("%w armored OpenPGP key: a %q block, want a public or private key block", protocol.ErrInvalid, block.Type)
		}
		entities, err := openpgp.ReadKeyRing(block.Body)
		if err != nil {
			return nil, fmt.Errorf("%w armored OpenPGP key: %w", protocol.ErrInvalid, err)
		}
		all = append(all, entities...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%w OpenPGP key: no key found", protocol.ErrInvalid)
	}
	return all, nil
}
