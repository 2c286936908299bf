package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// writeOutputs writes, for every stack that is applied and up to date,
// its outputs to the Secret its spec.writeOutputsToSecret names (a stack
// without one only lists the outputs its applied plan had), with the
// Tofu Controller's keys (one per output), labels and annotations, owned
// by the object. The outputs are the stack's contract document, as strata
// published it to its contract store: one source for both.
func (c *Controller) writeOutputs(ctx context.Context, p *pass) error {
	p.outputs = map[string]outputs{}
	set, err := c.cfg.Pipeline.Settings(p.env)
	if err != nil {
		return err
	}
	var store contracts.Store
	for _, tf := range sortedObjects(p.tfs) {
		sr, s := p.stacks[tf.Name], p.env.Stack(tf.Name)
		if sr == nil || s == nil {
			continue
		}
		if s.Produces == "" {
			// No contract: the outputs' names, as its plan had them, are
			// what the Tofu Controller lists (its Output condition).
			if sr.Result == history.ResultApplied && len(sr.Outputs) > 0 {
				p.outputs[tf.Name] = outputs{names: sr.Outputs}
			}
			continue
		}
		switch sr.Result {
		case history.ResultApplied, history.ResultNoChanges, history.ResultUnchanged:
		default:
			continue
		}
		if store == nil {
			if store, err = envstores.OpenContracts(ctx, p.env, set); err != nil {
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
			data, err := secretData(values, doc.Types)
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

// secretData is the Secret data of the outputs as the Tofu Controller
// writes it: a string output as its text, any other output as the JSON
// `tofu output -json` prints for it, beside a "<key>__type" key holding its
// type. A value whose type the contract does not hold (a document published
// before strata kept types) is written without that key.
func secretData(values map[string]any, types map[string]string) (map[string][]byte, error) {
	data := make(map[string][]byte, len(values))
	for k, v := range values {
		text, err := tcdata.SecretString(v)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", k, err)
		}
		data[k] = []byte(text)
		if t, ok := types[k]; ok && !isString(t) {
			data[k+tcdata.TypeSuffix] = []byte(t)
		}
	}
	return data, nil
}

// isString reports whether a type's JSON text is tofu's string type.
func isString(typ string) bool {
	var s string
	return json.Unmarshal([]byte(typ), &s) == nil && s == "string"
}
