package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/shape"
	"github.com/strata-iac/strata/policy"
)

// Downstream is a consumer that will re-plan once this stack's plan is
// applied, because it reads keys of the contract that the plan changes.
type Downstream struct {
	Stack    string `json:"stack"`
	Contract string `json:"contract"`
	// Keys are the keys it reads that change, as "section.name".
	Keys []string `json:"keys"`
	// Known is true when the whole next contract is known before apply,
	// so that the consumer's plan is previewed against it.
	Known bool `json:"known"`
}

// contractCheck is what a producer's plan does to its contract.
type contractCheck struct {
	// facts are the keys removed, changed, moved and added, and the
	// consumers broken, as policy reads them.
	facts *policy.Contract
	// downstream are the consumers that will re-plan.
	downstream []Downstream
	// changed are the keys ("public.vpc_id") whose value a consumer sees
	// change: removed, moved, added, a new value, or one known only after
	// apply.
	changed []string
	// next is the document the plan would publish, when every value of
	// it is known before apply; nil otherwise.
	next *contracts.Document
}

// CauseContractBreak is the cause of a plan held because applying it
// would break a consumer of the stack's contract.
const CauseContractBreak = "contract-break"

// checkContract is the contract-break check of a producer's plan: the
// contract the plan would publish (its keys, types and sections, from the
// plan JSON) against the one published now, and every consumer read that
// the difference breaks. A stack that publishes no contract, or has not
// published it yet, has nothing to break. A plan whose next contract
// cannot be worked out fails the run before anything is applied: the
// publication after apply would fail the same way.
func (r *Runner) checkContract(ctx context.Context, st *runState) error {
	if !st.plan.changed || st.removal != nil {
		return nil
	}
	check, err := r.contractCheck(ctx, st.log, st.req, st.plan)
	st.contract = check
	return err
}

// contractCheck compares the contract the plan would publish with the
// published one.
func (r *Runner) contractCheck(ctx context.Context, log *slog.Logger, req Request, p planned) (contractCheck, error) {
	s := req.Stack
	if s.Produces == "" {
		return contractCheck{}, nil
	}
	key := r.contractKey(s.Produces)
	c := &policy.Contract{
		Name:    s.Produces,
		Removed: []policy.ContractKey{}, Changed: []policy.ContractKey{}, Moved: []policy.ContractKey{}, Added: []policy.ContractKey{},
		Consumers: []policy.ContractConsumer{},
	}
	old, err := r.cfg.Contracts.Get(ctx, key)
	if errors.Is(err, contracts.ErrNotFound) {
		return contractCheck{facts: c}, nil
	}
	if err != nil {
		return contractCheck{}, fmt.Errorf("check contract %s of stack %s: %w", key, s.Name, err)
	}
	nextDoc, unknownSections, err := shape.Next(p.plan.JSON, s.ProducesOutputs)
	if err != nil {
		return contractCheck{}, fmt.Errorf("check contract %s of stack %s: %w", key, s.Name, err)
	}
	next := shape.Of(nextDoc)
	next.Unknown = unknownSections
	d := shape.Compare(shape.Of(old), next)
	for _, f := range d.Removed {
		c.Removed = append(c.Removed, policy.ContractKey{Section: f.Section, Name: f.Name, Type: f.Type})
	}
	for _, ch := range d.Changed {
		c.Changed = append(c.Changed, policy.ContractKey{Section: ch.Section, Name: ch.Name, Type: ch.Type, To: ch.To})
	}
	for _, m := range d.Moved {
		c.Moved = append(c.Moved, policy.ContractKey{Section: m.Section, Name: m.Name, Type: m.Type, To: m.To})
	}
	for _, f := range d.Added {
		c.Added = append(c.Added, policy.ContractKey{Section: f.Section, Name: f.Name, Type: f.Type})
	}
	for _, rd := range req.Readers {
		for _, b := range shape.Breaks(d, rd.Reads) {
			why := b.Why
			if rd.Err != "" {
				why += " (" + rd.Stack + " is taken to read every key: " + rd.Err + ")"
			}
			c.Consumers = append(c.Consumers, policy.ContractConsumer{
				Stack: rd.Stack, Section: b.Field.Section, Key: b.Field.Name, Why: why,
				File: b.Read.Pos.File, Line: b.Read.Pos.Line,
			})
		}
	}
	for _, cc := range c.Consumers {
		log.Warn(fmt.Sprintf("contract %s: %s.%s %s breaks %s, which reads it at %s:%d", s.Produces, cc.Section, cc.Key, cc.Why, cc.Stack, cc.File, cc.Line))
	}
	check := contractCheck{facts: c, downstream: downstream(req, old, nextDoc, unknownSections), changed: []string{}}
	for _, f := range shape.Changed(old, nextDoc, unknownSections) {
		check.changed = append(check.changed, f.Section+"."+f.Name)
	}
	if len(unknownSections) == 0 && shape.Known(nextDoc.Public) && shape.Known(nextDoc.Private) {
		nextDoc.Installed, nextDoc.Version, nextDoc.Stack, nextDoc.UpdatedAt = true, req.Artifact.Version, s.Name, r.cfg.Now().UTC().Truncate(time.Second)
		check.next = &nextDoc
	}
	for i := range check.downstream {
		check.downstream[i].Known = check.next != nil
	}
	return check, nil
}

// downstream lists the consumers that read keys whose value the plan
// changes, with those keys.
func downstream(req Request, old, next contracts.Document, unknownSections []string) []Downstream {
	changed := shape.Changed(old, next, unknownSections)
	var out []Downstream
	for _, rd := range req.Readers {
		ds := Downstream{Stack: rd.Stack, Contract: req.Stack.Produces, Keys: []string{}}
		for _, f := range changed {
			for _, read := range rd.Reads {
				if read.Reads(f.Section, f.Name) {
					ds.Keys = append(ds.Keys, f.Section+"."+f.Name)
					break
				}
			}
		}
		if len(ds.Keys) > 0 {
			out = append(out, ds)
		}
	}
	return out
}

// breaks says which consumers a contract change breaks, and where, in one
// line: "network.public.subnet_ids removed: read by cluster at main.tf:14".
func breaks(c *policy.Contract) string {
	parts := make([]string, 0, len(c.Consumers))
	for _, cc := range c.Consumers {
		parts = append(parts, fmt.Sprintf("%s.%s.%s %s: read by %s at %s:%d", c.Name, cc.Section, cc.Key, cc.Why, cc.Stack, cc.File, cc.Line))
	}
	return strings.Join(parts, "; ")
}
