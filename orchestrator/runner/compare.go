package runner

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/source"
)

// Change is why a stack's own inputs differ between two renders of the
// repository: Cause is one of the causes a run names (CauseUpgrade,
// CauseConfig, CauseVariables), "" when nothing differs; Code tells a
// CauseConfig of the code (a new digest at the same version) from one of
// the spec; Why is the sentence a run would log.
type Change struct {
	Cause string
	Code  bool
	Why   string
}

// compareScheme names the plain hashes Compare makes of both sides.
const compareScheme = "sha256/compare"

// Compare says why a stack's inputs at head differ from those at base,
// as a run decides it: the inputs are hashed as a run hashes them, base's
// taken as the last run's, and the cause is classified as a run classifies
// it (classify). Only what the repository decides is compared, before any
// contract is read (ownInputs): the contracts a stack reads are the
// caller's to follow. What a values template or a contract's Secret entry
// reads, which a run covers through what the contracts give it, is
// compared here as written, as the stack's spec.
func Compare(base, head *environment.Stack, baseArt, headArt source.Artifact) (Change, error) {
	before, err := ownInputs(base, baseArt)
	if err != nil {
		return Change{}, err
	}
	after, err := ownInputs(head, headArt)
	if err != nil {
		return Change{}, err
	}
	// Both sides are hashed here, in one process, and never kept: plain
	// hashes do. The base is taken as the last run.
	bh, ah := before.under(plain), after.under(plain)
	after.varHashes, after.upstreamHashes, after.specHashes, after.fingerprint = ah.vars, ah.upstreams, ah.spec, ah.fingerprint
	after.scheme = compareScheme
	prev := history.Run{
		Number:      1,
		Hashes:      compareScheme,
		ToVersion:   baseArt.Version,
		Digest:      baseArt.Digest,
		Fingerprint: bh.fingerprint,
		Inputs:      bh.vars,
		Spec:        bh.spec,
	}
	c := classify(prev, true, Request{Stack: head, Artifact: headArt}, after, false)
	if c.name != "" {
		return Change{Cause: c.name, Code: c.name == CauseConfig && baseArt.Digest != headArt.Digest, Why: c.line}, nil
	}
	if fields := readsChanged(base, head); len(fields) > 0 {
		return Change{Cause: CauseConfig, Why: "the stack's spec changed: " + strings.Join(fields, ", ")}, nil
	}
	return Change{}, nil
}

// readsChanged names the fields that say how a stack reads its contracts
// and the repository's Secrets, beyond those its fingerprint covers: the
// values template, its Secret inputs and the entries that read another
// stack's Secret. A run covers them through what they give the stack.
func readsChanged(base, head *environment.Stack) []string {
	var out []string
	if base.Values != head.Values {
		out = append(out, "spec.values")
	}
	if !sameJSON(base.SecretInputs, head.SecretInputs) {
		out = append(out, "spec.readInputsFromSecrets")
	}
	if !reflect.DeepEqual(base.ContractVars, head.ContractVars) {
		out = append(out, "spec.varsFrom")
	}
	return out
}

// sameJSON compares two values as canonical JSON.
func sameJSON(a, b map[string]map[string]any) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(x) == string(y)
}

// String is the change's sentence.
func (c Change) String() string {
	if c.Cause == "" {
		return "no change"
	}
	return fmt.Sprintf("%s: %s", c.Cause, c.Why)
}
