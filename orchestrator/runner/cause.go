package runner

import (
	"context"
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
	// CauseRehashed: the hash key changed since the last run (lost or
	// replaced), so what changed cannot be named.
	CauseRehashed = "rehashed"
	// CauseDestroy is a plan of spec.destroy: true.
	CauseDestroy = "destroy"
	// CauseInterrupted: the last apply died with strata and tofu (a pod
	// or machine crash) while it created resources, which may exist in
	// the cloud without state. Also the cause of that apply's run.
	CauseInterrupted = "interrupted"
)

// cause is a classified change: its name and the log line that says why.
type cause struct {
	name string
	line string
}

// classifyCause names why the plan differs from the last good apply, and
// logs it when the plan has changes.
func (r *Runner) classifyCause(_ context.Context, st *runState) error {
	c := classify(st.prev, st.hasPrev, st.req, st.in, st.plan.changed)
	st.cause = c
	st.run.Cause = c.name
	if c.line != "" && st.plan.changed {
		st.why = c.line
		st.log.Info(c.line)
	}
	return nil
}

// classify names why a stack's plan differs from its last good apply. The
// first cause that applies wins: install, upgrade, config, rehashed (the
// last run's hashes are under another key, so nothing can be compared),
// variables, upstream; with none of those, a plan with changes is drift, and a plan
// without is no change at all.
func classify(prev history.Run, hasPrev bool, req Request, in inputs, changed bool) cause {
	a := req.Artifact
	switch {
	case req.Stack != nil && req.Stack.Run.Destroy && changed:
		return cause{CauseDestroy, fmt.Sprintf("destroying the infrastructure: spec.destroy of Terraform/%s (%s) is true", req.Stack.Name, req.Stack.File)}
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
	h, known := in.against(prev)
	if !known {
		return cause{CauseRehashed, fmt.Sprintf("the hash key changed since run #%d (lost or replaced): what changed cannot be named", prev.Number)}
	}
	if vars := changedKeys(prev.Inputs, h.vars); len(vars) > 0 {
		return cause{CauseVariables, "variables changed: " + strings.Join(vars, ", ")}
	}
	if ups := changedKeys(prev.Upstreams, h.upstreams); len(ups) > 0 {
		return cause{CauseUpstream, "upstream contracts changed: " + strings.Join(ups, ", ")}
	}
	if fields := changedKeys(prev.Spec, h.spec); len(fields) > 0 {
		return cause{CauseConfig, "the stack's spec changed: " + strings.Join(fields, ", ")}
	}
	if prev.Fingerprint != h.fingerprint {
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
