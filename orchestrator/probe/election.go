package probe

import "fmt"

// Elector is the part of a leader election (package leader) that
// Election reads.
type Elector interface {
	// Leader reports whether this process leads, and the identity of the
	// leader it last saw ("" when none yet).
	Leader() (leading bool, identity string)
	// Lease names the Lease as namespace/name.
	Lease() string
}

// Election is ready once e has seen a leader: "leads the lease NS/NAME"
// or "follows ID on the lease NS/NAME".
func Election(e Elector) Check {
	return func() (string, error) {
		leading, leader := e.Leader()
		switch {
		case leading:
			return fmt.Sprintf("leads the lease %s", e.Lease()), nil
		case leader == "":
			return "", fmt.Errorf("no leader seen yet on the lease %s", e.Lease())
		default:
			return fmt.Sprintf("follows %s on the lease %s", leader, e.Lease()), nil
		}
	}
}
