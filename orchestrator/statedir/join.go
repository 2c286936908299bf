package statedir

import (
	"fmt"
	"path/filepath"
	"strings"

	securejoin "github.com/cyphar/filepath-securejoin"
)

// The state directory's layout, one name per kind of thing kept.
const (
	// History is the bbolt file of every run.
	History = "history.db"
	// Held holds held plans: held/<client>/<env>/<stack>/<plan id>/.
	Held = "held"
	// Work holds workspaces: work/<client>/<env>/<stack>/.
	Work = "work"
	// State holds default local state: state/<client>/<env>/<stack>.tfstate.
	State = "state"
	// Contracts holds the local contract store: contracts/<client>/<env>/.
	Contracts = "contracts"
	// ContractSchemas holds each contract's schema history:
	// contract-schemas/<client>/<env>/<contract>.json.
	ContractSchemas = "contract-schemas"
	// Render holds each environment's rendered environment, with what its
	// render read: render/<hash of its directory>.json (rendercache).
	Render = "render"
	// StateVersions holds, by environment, the version last read of each
	// local state file with its stat (statefile.Versions):
	// state-versions/<client>/<env>.json.
	StateVersions = "state-versions"
)

// Join returns root joined with the elements, each one path element. An
// empty element, ".", "..", or one holding a path separator is an error
// naming it; the result is resolved with a secure join, so it is always
// inside root.
func Join(root string, elems ...string) (string, error) {
	if err := checkNames(root, elems); err != nil {
		return "", err
	}
	p, err := securejoin.SecureJoin(root, filepath.Join(elems...))
	if err != nil {
		return "", fmt.Errorf("join %q under %s: %w", filepath.Join(elems...), root, err)
	}
	return p, nil
}

// checkNames refuses an element that is not one name: empty, ".", "..",
// or holding a path separator or a NUL.
func checkNames(root string, elems []string) error {
	for _, e := range elems {
		if e == "" || e == "." || e == ".." || strings.ContainsAny(e, `/\`) || strings.ContainsRune(e, 0) {
			return fmt.Errorf("join %q under %s: %q is not a single name", filepath.Join(elems...), root, e)
		}
	}
	return nil
}
