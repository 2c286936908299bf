package runner

import (
	"fmt"
	"strings"

	"github.com/strata-iac/strata/orchestrator/history"
)

// Causes of a change, as DESIGN.md names them.
const (
	CauseInstall   = "install"
	CauseUpgrade   = "upgrade"
	CauseConfig    = "config"
	CauseVariables = "variables"
	CauseUpstream  = "upstream"
	CauseDrift     = "drift"
	CauseRemoved   = "removed"
)

// cause is a classified change: its name and the log line that says why.
type cause struct {
	name string
	line string
}

// classify names why a stack's plan differs from its last good apply. The
// first cause that applies wins: install, upgrade, config, variables,
// upstream; with none of those, a plan with changes is drift, and a plan
// without is no change at all.
func classify(prev history.Run, hasPrev bool, req Request, in inputs, changed bool) cause {
	a := req.Artifact
	switch {
	case !hasPrev:
		if a.Version != "" {
			return cause{CauseInstall, fmt.Sprintf("installing the infrastructure at version %s", a.Version)}
		}
		return cause{CauseInstall, "installing the infrastructure"}
	case prev.ToVersion != a.Version:
		return cause{CauseUpgrade, fmt.Sprintf("upgrading the infrastructure from version %s to %s", orNone(prev.ToVersion), orNone(a.Version))}
	case prev.Digest != a.Digest:
		return cause{CauseConfig, fmt.Sprintf("the configuration changed at version %s (digest %s, was %s)", orNone(a.Version), short(a.Digest), short(prev.Digest))}
	}
	if vars := changedKeys(prev.Inputs, in.varHashes); len(vars) > 0 {
		return cause{CauseVariables, "variables changed: " + strings.Join(vars, ", ")}
	}
	if ups := changedKeys(prev.Upstreams, in.upstreamHashes); len(ups) > 0 {
		return cause{CauseUpstream, "upstream contracts changed: " + strings.Join(ups, ", ")}
	}
	if prev.Fingerprint != in.fingerprint {
		return cause{CauseConfig, "the stack's spec changed (its backend, or the contracts it publishes or reads)"}
	}
	if changed && in.stateChange != "" {
		return cause{CauseDrift, in.stateChange}
	}
	if changed {
		return cause{CauseDrift, "drift: nothing of ours changed, yet the infrastructure differs from its configuration"}
	}
	return cause{}
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

func short(d string) string {
	if len(d) > 15 {
		return d[:15]
	}
	return d
}
