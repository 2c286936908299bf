package shape

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/strata-iac/strata/contracts"
)

// unknown stands in a planned value for a part tofu only knows after
// apply.
type unknown struct{}

// FromPlan returns the shape of the contract a producer will publish when
// the plan is applied: planned_values.outputs, with the parts still
// unknown taken from output_changes, split as contracts.Build splits
// them. only limits the outputs published, as Build's only does.
func FromPlan(planJSON []byte, only []string) (Shape, error) {
	doc, unknownSections, err := Next(planJSON, only)
	if err != nil {
		return Shape{}, err
	}
	s := Of(doc)
	s.Unknown = unknownSections
	return s, nil
}

// Next returns the document a producer will publish when the plan is
// applied, as far as the plan knows it: a value, or part of one, that
// tofu only knows after apply is an unknown placeholder (see Known), and
// unknownSections lists the explicit sections whose keys are not known
// at all. Installed, version, stack and updatedAt are left empty.
func Next(planJSON []byte, only []string) (doc contracts.Document, unknownSections []string, err error) {
	var p tfjson.Plan
	if err := json.Unmarshal(planJSON, &p); err != nil {
		return contracts.Document{}, nil, fmt.Errorf("contract shape from plan: %w", err)
	}
	outs := map[string]contracts.Output{}
	if p.PlannedValues != nil {
		for name, o := range p.PlannedValues.Outputs {
			if o == nil {
				continue
			}
			v := o.Value
			if v == nil {
				v = partial(p.OutputChanges[name])
			}
			outs[name] = contracts.Output{Value: v, Sensitive: o.Sensitive}
		}
	}
	// An explicit section tofu knows nothing of yet has keys unknown
	// until apply: it is left out of the build, and said to be unknown.
	for _, section := range []string{contracts.OutputPrivate, contracts.OutputPublic} {
		if o, ok := outs[section]; ok && (len(only) == 0 || slices.Contains(only, section)) {
			if _, isUnknown := o.Value.(unknown); isUnknown {
				unknownSections = append(unknownSections, section)
				outs[section] = contracts.Output{Value: map[string]any{}, Sensitive: o.Sensitive}
			}
		}
	}
	doc, err = contracts.Build("(planned)", "", outs, only, time.Time{})
	if err != nil {
		return contracts.Document{}, nil, fmt.Errorf("contract shape from plan: %w", err)
	}
	doc.Installed, doc.Stack, doc.UpdatedAt = false, "", time.Time{}
	return doc, unknownSections, nil
}

// Known reports whether a value of a planned document is wholly known
// before apply.
func Known(v any) bool {
	switch v := v.(type) {
	case unknown:
		return false
	case map[string]any:
		for _, e := range v {
			if !Known(e) {
				return false
			}
		}
	case []any:
		for _, e := range v {
			if !Known(e) {
				return false
			}
		}
	}
	return true
}

// partial rebuilds a planned value from an output change: its known parts
// (after) with unknown in place of each part after_unknown marks. A value
// with no change recorded is unknown.
func partial(c *tfjson.Change) any {
	if c == nil {
		return unknown{}
	}
	return merge(c.After, c.AfterUnknown)
}

func merge(after, afterUnknown any) any {
	switch u := afterUnknown.(type) {
	case bool:
		if u {
			return unknown{}
		}
		return after
	case map[string]any:
		out := map[string]any{}
		if m, ok := after.(map[string]any); ok {
			for k, v := range m {
				out[k] = v
			}
		}
		for k, uk := range u {
			out[k] = merge(out[k], uk)
		}
		return out
	case []any:
		a, _ := after.([]any)
		out := make([]any, max(len(a), len(u)))
		for i := range out {
			var v, uk any
			if i < len(a) {
				v = a[i]
			}
			if i < len(u) {
				uk = u[i]
			}
			out[i] = merge(v, uk)
		}
		return out
	default:
		if after == nil {
			return unknown{}
		}
		return after
	}
}
