package reconcile

import (
	"context"
	"log/slog"
	"time"

	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// VersionRow is one stack of the versions report: what the repository
// asks for, what that resolves to now, what was last applied, and how the
// last run went.
type VersionRow struct {
	Client      string `json:"client"`
	Environment string `json:"environment"`
	Stack       string `json:"stack"`
	Layer       string `json:"layer"`
	// Constraint is the version asked for (a range, an exact version, a tag
	// or a digest).
	Constraint string `json:"constraint,omitempty"`
	// Resolved and Digest are what the constraint resolves to now; Origin
	// where that comes from. ResolveError says why it could not resolve.
	Resolved     string `json:"resolved,omitempty"`
	Digest       string `json:"digest,omitempty"`
	Origin       string `json:"origin,omitempty"`
	ResolveError string `json:"resolveError,omitempty"`
	// Applied and AppliedDigest are the version of the last successful
	// apply.
	Applied       string `json:"applied,omitempty"`
	AppliedDigest string `json:"appliedDigest,omitempty"`
	// Current is true when what is applied is what resolves now.
	Current bool `json:"current"`
	// LastRun is the stack's last run, if any.
	LastRun       int               `json:"lastRun,omitempty"`
	LastResult    history.Result    `json:"lastResult,omitempty"`
	LastOperation history.Operation `json:"lastOperation,omitempty"`
	LastRunAt     time.Time         `json:"lastRunAt,omitzero"`
}

// Versions reports, for every stack of an environment, the version asked
// for, the version it resolves to, the version last applied and the result
// of the last run. It changes nothing.
func Versions(ctx context.Context, dir string, opts Options) ([]VersionRow, error) {
	env, g, err := validate.Environment(ctx, dir)
	if err != nil {
		return nil, err
	}
	set, err := opts.Settings(env)
	if err != nil {
		return nil, err
	}
	st, err := envstores.OpenStoresReadOnly(ctx, env, set, opts.Records)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	arts := resolve(ctx, slog.New(slog.DiscardHandler), env, newResolver(env, st.StateDir, opts.InsecureRegistries, opts.DockerConfig))
	rows := make([]VersionRow, 0, len(env.Stacks))
	for _, name := range g.Order() {
		s := env.Stack(name)
		row := VersionRow{Client: env.Client, Environment: env.Name, Stack: name, Layer: s.Layer.String(), Constraint: s.Version}
		if res := arts[name]; res.err != nil {
			row.ResolveError = res.err.Error()
		} else {
			row.Constraint, row.Resolved, row.Digest, row.Origin = res.source.Constraint, res.source.Version, res.source.Digest, res.source.Origin
		}
		h, err := st.History.Head(ctx, env.Client, env.Name, name)
		if err != nil {
			return nil, err
		}
		if applied := h.Good; applied.Number > 0 {
			row.Applied, row.AppliedDigest = applied.ToVersion, applied.Digest
			row.Current = row.Digest != "" && applied.Digest == row.Digest
		}
		if last := h.Last; last.Number > 0 {
			row.LastRun, row.LastResult, row.LastOperation, row.LastRunAt = last.Number, last.Result, last.Operation, last.StartedAt
		}
		rows = append(rows, row)
	}
	return rows, nil
}
