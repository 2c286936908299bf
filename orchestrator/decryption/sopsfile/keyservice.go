package sopsfile

import (
	"context"
	"fmt"
	"io"

	sopsage "github.com/getsops/sops/v3/age"
	"github.com/getsops/sops/v3/keyservice"
	"github.com/getsops/sops/v3/logging"
	"github.com/getsops/sops/v3/pgp"
)

func init() {
	// sops logs through logrus to stderr; strata says what matters itself.
	for _, l := range logging.Loggers {
		l.SetOutput(io.Discard)
	}
}

// keyServer is the sops key service strata decrypts data keys with: age
// with the identities found, OpenPGP with the user's gpg keyring. It
// encrypts nothing.
type keyServer struct {
	keyservice.UnimplementedKeyServiceServer
	age ageIdentities
}

// Decrypt decrypts one data key.
func (s *keyServer) Decrypt(ctx context.Context, req *keyservice.DecryptRequest) (*keyservice.DecryptResponse, error) {
	switch k := req.GetKey().GetKeyType().(type) {
	case *keyservice.Key_AgeKey:
		if len(s.age.ids) == 0 {
			return nil, fmt.Errorf("no age identity found")
		}
		mk := &sopsage.MasterKey{Recipient: k.AgeKey.GetRecipient(), EncryptedKey: string(req.GetCiphertext())}
		s.age.ids.ApplyToMasterKey(mk)
		b, err := mk.Decrypt()
		if err != nil {
			return nil, err
		}
		return &keyservice.DecryptResponse{Plaintext: b}, nil
	case *keyservice.Key_PgpKey:
		mk := pgp.NewMasterKeyFromFingerprint(k.PgpKey.GetFingerprint())
		mk.EncryptedKey = string(req.GetCiphertext())
		b, err := mk.DecryptContext(ctx)
		if err != nil {
			return nil, err
		}
		return &keyservice.DecryptResponse{Plaintext: b}, nil
	}
	return nil, fmt.Errorf("strata decrypts with age and OpenPGP keys only")
}
