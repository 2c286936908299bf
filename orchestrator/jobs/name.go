package jobs

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxPrefix keeps a Job's name, with "-tf-runner-" and the hash, within
// the 63 characters of the job-name label its pods carry.
const maxPrefix = 40

// Name is the Job of one run of object: the object's name (shortened, and
// with dots made dashes), then "-tf-runner-" and a hash of the object and
// the run key. The same object and run always give the same name, which
// is how a leader that takes over finds the Job in flight.
func Name(object, run string) string {
	sum := sha256.Sum256([]byte(object + "\x00" + run))
	prefix := strings.ToLower(strings.ReplaceAll(object, ".", "-"))
	if len(prefix) > maxPrefix {
		prefix = prefix[:maxPrefix]
	}
	prefix = strings.TrimRight(prefix, "-")
	return prefix + "-tf-runner-" + hex.EncodeToString(sum[:])[:10]
}
