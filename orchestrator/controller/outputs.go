package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/history"
)

// writeOutputs writes, for every stack that is applied and up to date,
// its outputs to the Secret its spec.writeOutputsToSecret names, with the
// Tofu Controller's keys (one per output), labels and annotations, owned
// by the object. The outputs are the stack's contract document, as strata
// published it to its contract store: one source for both.
func (c *Controller) writeOutputs(ctx context.Context, p *pass) error {
	p.outputs = map[string]outputs{}
	set, err := c.cfg.Options.Settings(p.env)
	if err != nil {
		return err
	}
	var store contracts.Store
	for _, tf := range sortedObjects(p.tfs) {
		sr, s := p.stacks[tf.Name], p.env.Stack(tf.Name)
		if sr == nil || s == nil || s.Produces == "" {
			continue
		}
		switch sr.Result {
		case history.ResultApplied, history.ResultNoChanges, history.ResultUnchanged:
		default:
			continue
		}
		if store == nil {
			if store, err = orchestrator.OpenContracts(ctx, p.env, set); err != nil {
				return err
			}
		}
		doc, err := store.Get(ctx, contracts.Key(set.Contracts.Prefix, s.Produces))
		if err != nil {
			c.log.Warn(fmt.Sprintf("outputs of stack %s: %v", s.Name, err), "namespace", p.ns)
			continue
		}
		values := map[string]any{}
		maps.Copy(values, doc.Public)
		maps.Copy(values, doc.Private)
		out := outputs{names: slices.Sorted(maps.Keys(values))}
		if w := tf.Spec.WriteOutputsToSecret; w != nil {
			data, err := secretData(values)
			if err != nil {
				return fmt.Errorf("outputs of stack %s: %w", s.Name, err)
			}
			if _, err := c.cfg.Cluster.WriteSecret(ctx, tf, w.Name, w.Labels, w.Annotations, data); err != nil {
				c.event(ctx, tf, "Warning", "OutputsWritingFailed", err.Error())
				return err
			}
			out.written = true
		}
		p.outputs[tf.Name] = out
	}
	return nil
}

// secretData is the Secret data of the outputs: a string as its text, any
// other value as its JSON.
func secretData(values map[string]any) (map[string][]byte, error) {
	data := make(map[string][]byte, len(values))
	for k, v := range values {
		if s, ok := v.(string); ok {
			data[k] = []byte(s)
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", k, err)
		}
		data[k] = b
	}
	return data, nil
}
