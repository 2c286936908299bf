package decryption

import (
	"fmt"
	"strings"
)

// KeyError is a value that no key strata has opens.
type KeyError struct {
	// Recipients are the keys the value was encrypted for: "age age1…",
	// "pgp FINGERPRINT", ….
	Recipients []string
	// Sources are the places age identities were looked for.
	Sources []string
	// Problems are key sources that exist but could not be read.
	Problems []string
	// Secret names the Secret whose keys alone were tried
	// (Keys.Secret), or "".
	Secret string
}

// Error says which keys would open the value and where strata looked.
func (e *KeyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no key strata has opens it: it is encrypted for %s; age identities were looked for in %s",
		strings.Join(e.Recipients, ", "), strings.Join(e.Sources, ", "))
	if len(e.Problems) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(e.Problems, "; "))
	}
	return b.String()
}

// HasPGP reports whether one of the recipients is an OpenPGP key.
func (e *KeyError) HasPGP() bool {
	for _, r := range e.Recipients {
		if strings.HasPrefix(r, "pgp ") {
			return true
		}
	}
	return false
}
