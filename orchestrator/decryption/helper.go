package decryption

import "github.com/strata-iac/strata/internal/helperbin"

// HelperName is the program strata decrypts with: the sops library lives
// in it, not in strata (see cmd/strata-sops).
const HelperName = "strata-sops"

// EnvHelper names the strata-sops binary to run, in place of the one
// beside strata's executable or on $PATH.
const EnvHelper = "STRATA_SOPS"

// sopsProgram is strata-sops, as helperbin looks for it.
var sopsProgram = helperbin.Program{Name: HelperName, Env: EnvHelper, Does: "decrypts SOPS values with"}

// HelperError is strata-sops not found where strata looks for it: it
// says where strata looked, in order, and how to install the helper.
type HelperError = helperbin.NotFoundError

// FindHelper returns the strata-sops to run: $STRATA_SOPS when it is set,
// else strata-sops beside strata's own executable (symbolic links
// resolved), else strata-sops on $PATH. It is a *HelperError when there
// is none.
func FindHelper() (string, error) { return sopsProgram.Find() }
