package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/shape"
	"github.com/strata-iac/strata/policy"
)

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
func (r *Runner) checkContract(ctx context.Context, log *slog.Logger, req Request, p planned) (*policy.Contract, error) {
	s := req.Stack
	if s.Produces == "" {
		return nil, nil
	}
	key := r.contractKey(s.Produces)
	c := &policy.Contract{
		Name:    s.Produces,
		Removed: []policy.ContractKey{}, Changed: []policy.ContractKey{}, Moved: []policy.ContractKey{}, Added: []policy.ContractKey{},
		Consumers: []policy.ContractConsumer{},
	}
	old, err := r.cfg.Contracts.Get(ctx, key)
	if errors.Is(err, contracts.ErrNotFound) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("check contract %s of stack %s: %w", key, s.Name, err)
	}
	next, err := shape.FromPlan(p.plan.JSON, s.ProducesOutputs)
	if err != nil {
		return nil, fmt.Errorf("check contract %s of stack %s: %w", key, s.Name, err)
	}
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
	return c, nil
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
