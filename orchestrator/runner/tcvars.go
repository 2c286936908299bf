package runner

import (
	"fmt"
	"maps"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// ValuesVar is the variable that receives spec.values, rendered, as the
// Tofu Controller passes it.
const ValuesVar = "values"

// renderValues renders the stack's spec.values over its
// readInputsFromSecrets inputs: the Secrets of the repository, and the
// contracts read, each as the Tofu Controller's output Secret would hold
// it.
func renderValues(s *environment.Stack, docs map[string]*contracts.Document) (any, error) {
	v, err := tcdata.ParseValuesText(s.Values)
	if err != nil {
		return nil, fmt.Errorf("gather inputs of stack %s: spec.values in %s: %w", s.Name, s.File, err)
	}
	inputs := maps.Clone(s.SecretInputs)
	if inputs == nil {
		inputs = map[string]map[string]any{}
	}
	for _, c := range s.Consumes {
		if d := docs[c.Contract]; d != nil {
			inputs[c.As] = tcdata.Flat(d.Public, d.Private)
		}
	}
	out, err := v.Render(inputs)
	if err != nil {
		return nil, fmt.Errorf("gather inputs of stack %s: spec.values in %s: %w", s.Name, s.File, err)
	}
	return out, nil
}

// contractVars is what one varsFrom or valueFrom entry naming another
// stack's output Secret gives: each key as the Tofu Controller passes it,
// the Secret's text (a string as it is, anything else as JSON). doc is nil
// when no stack publishes the contract, which only an optional entry
// allows: a varsFrom then gives its varsKeys empty, as the Tofu Controller
// does, and a valueFrom nothing.
func contractVars(stack string, cv environment.ContractVars, doc *contracts.Document) (map[string]any, error) {
	out := map[string]any{}
	var flat map[string]any
	if doc != nil {
		flat = tcdata.Flat(doc.Public, doc.Private)
	}
	if cv.Keys == nil {
		for k, v := range flat {
			text, err := tcdata.SecretString(v)
			if err != nil {
				return nil, fmt.Errorf("gather inputs of stack %s: %s: key %s: %w", stack, cv.Field, k, err)
			}
			out[k] = text
		}
		return out, nil
	}
	for _, k := range cv.Keys {
		v, ok := flat[k.From]
		switch {
		case ok:
			text, err := tcdata.SecretString(v)
			if err != nil {
				return nil, fmt.Errorf("gather inputs of stack %s: %s: key %s: %w", stack, cv.Field, k.From, err)
			}
			out[k.To] = text
		case cv.ValueFrom && cv.Optional:
		case cv.Optional:
			out[k.To] = ""
		default:
			return nil, fmt.Errorf("gather inputs of stack %s: %s reads key %q of Secret %s, which its producer does not publish: "+
				"add the output to the producer, or mark the entry optional: true", stack, cv.Field, k.From, cv.Contract)
		}
	}
	return out, nil
}
