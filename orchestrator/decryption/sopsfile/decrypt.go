package sopsfile

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/getsops/sops/v3"
	"github.com/getsops/sops/v3/aes"
	"github.com/getsops/sops/v3/cmd/sops/common"
	"github.com/getsops/sops/v3/cmd/sops/formats"
	"github.com/getsops/sops/v3/config"
	"github.com/getsops/sops/v3/keyservice"

	"github.com/strata-iac/strata/orchestrator/decryption"
)

// Decryptor decrypts SOPS-encrypted objects and values with the keys of
// one decryption.Keys. It is safe for concurrent use.
type Decryptor struct {
	keys decryption.Keys
	once sync.Once
	svcs []keyservice.KeyServiceClient
	age  ageIdentities
}

// New returns a Decryptor for keys. It reads the age identities on first
// use.
func New(keys decryption.Keys) *Decryptor { return &Decryptor{keys: keys} }

// services returns the key services, reading the identities once.
func (d *Decryptor) services() []keyservice.KeyServiceClient {
	d.once.Do(func() {
		d.age = loadAgeIdentities(d.keys)
		d.svcs = []keyservice.KeyServiceClient{keyservice.NewCustomLocalClient(&keyServer{age: d.age})}
	})
	return d.svcs
}

// Object decrypts a SOPS-encrypted object, given as JSON, and returns it
// as JSON without its sops metadata.
func (d *Decryptor) Object(obj []byte) ([]byte, error) {
	return d.decrypt(obj, formats.Json, formats.Json)
}

// detect returns the format a sops-encrypted value was written in.
func detect(b []byte) (formats.Format, bool) {
	f, ok := decryption.Format(b)
	if !ok {
		return 0, false
	}
	return formats.FormatFromString(f), true
}

// Value decrypts a value that is a sops-encrypted file, named name (a file
// name or a Secret's data key): the result is in the format the name
// implies, as kustomize-controller writes it (.yaml, .json or
// .dockerconfigjson, .env, .ini; else binary, the file's content). A value
// that is not encrypted comes back as it is, with false.
func (d *Decryptor) Value(b []byte, name string) ([]byte, bool, error) {
	in, ok := detect(b)
	if !ok {
		return b, false, nil
	}
	out := formats.FormatForPath(name)
	if strings.HasSuffix(name, ".dockerconfigjson") {
		out = formats.Json
	}
	plain, err := d.decrypt(b, in, out)
	return plain, true, err
}

// EnvValue decrypts a sops-encrypted env file (a secretGenerator's envs
// entry): dotenv unless its name says another format.
func (d *Decryptor) EnvValue(b []byte, name string) ([]byte, bool, error) {
	in, ok := detect(b)
	if !ok {
		return b, false, nil
	}
	out := formats.FormatForPath(name)
	if out == formats.Binary {
		out = formats.Dotenv
	}
	plain, err := d.decrypt(b, in, out)
	return plain, true, err
}

// decrypt loads an encrypted file in format in, gets its data key from
// the key services and emits the plain file in format out. sops may panic
// on malformed input; that is an error too.
func (d *Decryptor) decrypt(b []byte, in, out formats.Format) (plain []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			plain, err = nil, decryption.ErrMalformed
		}
	}()
	if err := decryption.CheckSize(b); err != nil {
		return nil, err
	}
	tree, err := common.StoreForFormat(in, config.NewStoresConfig()).LoadEncryptedFile(b)
	if err != nil {
		return nil, fmt.Errorf("read sops metadata: %w", userError(err))
	}
	key, err := tree.Metadata.GetDataKeyWithKeyServices(d.services(), sops.DefaultDecryptionOrder)
	if err != nil {
		return nil, d.keyError(tree.Metadata)
	}
	if _, err := tree.Decrypt(key, aes.NewCipher()); err != nil {
		return nil, decryption.ErrMalformed
	}
	plain, err = common.StoreForFormat(out, config.NewStoresConfig()).EmitPlainFile(tree.Branches)
	if err != nil {
		return nil, fmt.Errorf("write the decrypted value: %w", userError(err))
	}
	return plain, nil
}

// keyError names the recipients of a file no key opened.
func (d *Decryptor) keyError(m sops.Metadata) *decryption.KeyError {
	e := &decryption.KeyError{Sources: d.age.sources}
	if d.keys.Secret != nil {
		e.Secret = d.keys.Secret.Name
	}
	for _, g := range m.KeyGroups {
		for _, k := range g {
			e.Recipients = append(e.Recipients, k.TypeToIdentifier()+" "+k.ToString())
		}
	}
	for _, err := range d.age.errs {
		e.Problems = append(e.Problems, err.Error())
	}
	return e
}

// userError turns a sops error into its message for users.
func userError(err error) error {
	var ue sops.UserError
	if errors.As(err, &ue) {
		return errors.New(ue.UserError())
	}
	return err
}
