package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/history"
)

// publish reads an apply's outputs and publishes them as its contract
// document, when the stack produces one. An unchanged document is not
// written again, so its updatedAt says when its content last changed; and
// after a plan without changes whose contract is current, the outputs are
// not even read.
func (r *Runner) publish(ctx context.Context, st *runState) error {
	log, req, run, s := st.log, st.req, &st.run, st.req.Stack
	if s.Produces == "" || req.Operation == history.OperationPlan {
		return nil
	}
	if run.Result == history.ResultApplied {
		// What was applied is published even when strata is stopping:
		// the apply finished within the shutdown grace.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), afterStop)
		defer cancel()
	}
	if s.Run.Destroy {
		return r.publishDestroyed(ctx, st)
	}
	if !st.plan.changed {
		if doc, ok := r.contractCurrent(ctx, st); ok {
			run.Contract = st.prev.Contract
			log.Debug("contract " + st.prev.Contract + " unchanged: same inputs as run #" + fmt.Sprint(st.prev.Number) + " and no changes")
			return r.recordSchema(log, s.Produces, doc)
		}
	}
	key := r.contractKey(s.Produces)
	fail := func(err error) error { return fmt.Errorf("publish contract %s of stack %s: %w", key, s.Name, err) }
	outs, err := st.outputsOf(ctx)
	if err != nil {
		return fail(err)
	}
	in := make(map[string]contracts.Output, len(outs))
	for name, o := range outs {
		in[name] = contracts.Output{Value: o.Value, Sensitive: o.Sensitive, Type: o.Type}
	}
	doc, err := contracts.Build(s.Name, req.Artifact.Version, in, s.ProducesOutputs, r.cfg.Now())
	if err != nil {
		return fail(err)
	}
	run.Contract = key
	old, err := r.cfg.Contracts.Get(ctx, key)
	switch {
	case err == nil && old.ContentHash() == doc.ContentHash():
		log.Debug("contract " + key + " unchanged")
		return r.recordSchema(log, s.Produces, old)
	case err != nil && !errors.Is(err, contracts.ErrNotFound):
		return fail(err)
	}
	if err := r.cfg.Contracts.Put(ctx, key, doc); err != nil {
		return fail(err)
	}
	log.Info("published contract "+key,
		"public", names(doc.Public),
		"private", names(doc.Private))
	return r.recordSchema(log, s.Produces, doc)
}

// recordSchema records the published contract's keys and types in its
// schema history, and says when its schema version moves.
func (r *Runner) recordSchema(log *slog.Logger, contract string, doc contracts.Document) error {
	if r.cfg.Schemas == nil {
		return nil
	}
	before, _, err := r.cfg.Schemas.Get(contract)
	if err != nil {
		return err
	}
	after, err := r.cfg.Schemas.Record(contract, doc, r.cfg.Now())
	if err != nil {
		return err
	}
	if before.Version != 0 && after.Version != before.Version {
		log.Warn(fmt.Sprintf("contract %s schema version %d: a breaking change since version %d", contract, after.Version, before.Version))
	}
	return nil
}

// contractCurrent reports whether a stack whose plan has no changes can
// keep its published contract without reading its outputs again: its
// inputs are those of its last good apply, which published the contract
// under the same key, and the contract is still there. A plan without
// changes means the outputs in state are what that apply left, so reading
// them (one more tofu process) would only find the same document.
func (r *Runner) contractCurrent(ctx context.Context, st *runState) (contracts.Document, bool) {
	s, in, prev, hasPrev := st.req.Stack, st.in, st.prev, st.hasPrev
	if s.Produces == "" {
		return contracts.Document{}, false // nothing to publish, nothing to read
	}
	key := r.contractKey(s.Produces)
	if !hasPrev || !in.sameAs(prev) || prev.Contract != key {
		return contracts.Document{}, false
	}
	doc, err := r.cfg.Contracts.Get(ctx, key)
	if err != nil || untyped(doc) {
		return contracts.Document{}, false // an untyped one is read again, to keep its types
	}
	return doc, true
}

// untyped reports whether a document has values but not their types: it
// was published before strata kept them.
func untyped(doc contracts.Document) bool {
	return len(doc.Types) == 0 && len(doc.Public)+len(doc.Private) > 0
}

// names lists a document part's keys, never its values.
func names(m map[string]any) []string {
	out := slices.Sorted(maps.Keys(m))
	if out == nil {
		out = []string{}
	}
	return out
}

// publishDestroyed says in the contract of a stack whose spec.destroy is
// true, once its destruction is applied (or there was nothing left to
// destroy), that it is no longer installed, as for a stack that left the
// environment.
func (r *Runner) publishDestroyed(ctx context.Context, st *runState) error {
	s := st.req.Stack
	key := r.contractKey(s.Produces)
	st.run.Contract = key
	if old, err := r.cfg.Contracts.Get(ctx, key); err == nil && !old.Installed {
		return nil
	}
	doc := contracts.Document{
		Installed: false, Version: st.req.Artifact.Version, Stack: s.Name,
		UpdatedAt: r.cfg.Now().UTC().Truncate(time.Second),
		Public:    map[string]any{}, Private: map[string]any{},
	}
	if err := r.cfg.Contracts.Put(ctx, key, doc); err != nil {
		return fmt.Errorf("publish contract %s of destroyed stack %s: %w", key, s.Name, err)
	}
	st.log.Info("contract " + key + " now says the stack is not installed (spec.destroy)")
	return nil
}
