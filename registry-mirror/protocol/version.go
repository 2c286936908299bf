package protocol

import (
	"fmt"
	"regexp"
)

// versionRE is a semantic version without build metadata; a pre-release
// is lower case, since tofu lower-cases archive names.
var versionRE = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9a-z-]+(\.[0-9a-z-]+)*)?$`)

// CheckVersion checks a provider or module version as it appears in paths
// and archive names: a semantic version such as 1.2.3 or 1.2.3-rc.1,
// lower case, without build metadata. The error wraps [ErrInvalid].
func CheckVersion(v string) error {
	if len(v) > 128 || !versionRE.MatchString(v) {
		return fmt.Errorf("%w version %q: want a semantic version such as 1.2.3 or 1.2.3-rc.1, lower case, without build metadata", ErrInvalid, v)
	}
	return nil
}
