package decryption

import (
	"bytes"
	"errors"
	"fmt"
)

// MaxSize is the largest encrypted value decrypted, as in
// kustomize-controller.
const MaxSize = 5 << 20

// ErrMalformed is what a value sops cannot read gets: sops' own messages
// may quote the value.
var ErrMalformed = errors.New("the sops-encrypted values are malformed: re-encrypt the file with sops")

// CheckSize refuses a value larger than MaxSize.
func CheckSize(b []byte) error {
	if len(b) > MaxSize {
		return fmt.Errorf("the encrypted value is %d bytes, more than the %d decrypted", len(b), MaxSize)
	}
	return nil
}

// IsEncrypted reports whether an object is SOPS-encrypted: it has a sops
// field with a mac, as kustomize-controller checks.
func IsEncrypted(obj map[string]any) bool {
	s, ok := obj["sops"].(map[string]any)
	if !ok {
		return false
	}
	mac, _ := s["mac"].(string)
	return mac != ""
}

// markers are the strings only a sops-encrypted file of each format
// holds, in the order they are looked for (kustomize-controller's
// markers; binary files are a JSON envelope), with sops' name of the
// format.
var markers = []struct {
	format string
	marker []byte
}{
	{"yaml", []byte("mac: ENC[")},
	{"json", []byte(`"mac": "ENC[`)},
	{"dotenv", []byte("sops_mac=ENC[")},
	{"ini", []byte("[sops]")},
}

// Encrypted reports whether a value is a sops-encrypted file.
func Encrypted(b []byte) bool {
	_, ok := Format(b)
	return ok
}

// Format returns sops' name of the format a sops-encrypted value was
// written in (yaml, json, dotenv, ini), and false for a value that is not
// a sops-encrypted file.
func Format(b []byte) (string, bool) {
	for _, m := range markers {
		if bytes.Contains(b, m.marker) {
			return m.format, true
		}
	}
	return "", false
}
