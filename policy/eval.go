package policy

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Meta says what a plan is for. It is added to the plan JSON as the
// top-level key strata, every field present (empty when unknown), so rules
// can read input.strata.environmentClass and the like.
type Meta struct {
	Stack            string `json:"stack"`
	Client           string `json:"client"`
	Environment      string `json:"environment"`
	EnvironmentClass string `json:"environmentClass"`
	Cause            string `json:"cause"`
	FromVersion      string `json:"fromVersion"`
	ToVersion        string `json:"toVersion"`
	// Interrupted lists the resources whose apply strata itself
	// interrupted in the stack's last run (it was stopped): tofu tainted
	// them, and their replacement finishes what was allowed then.
	Interrupted []string `json:"interrupted"`
	// Contract is what the plan does to the stack's contract; nil when
	// the stack publishes none (rules then see empty lists).
	Contract *Contract `json:"contract,omitempty"`
}

// Finding is one result of one rule.
type Finding struct {
	// Rule is the rule's name, e.g. "deny_delete".
	Rule string `json:"rule"`
	// Namespace is the rule's package without "data.", e.g. "main".
	Namespace string `json:"namespace"`
	// Address is the resource the finding is about, from the result's
	// "address" key; empty when the rule returned a plain string.
	Address string `json:"address,omitempty"`
	// Message is the result's "msg", or the string the rule returned.
	Message string `json:"message"`
	// Metadata are the result's other keys.
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Decision is what the rules say about one plan. Each list is sorted by
// rule, address and message.
type Decision struct {
	// Denies hold the plan: results of deny and violation rules.
	Denies []Finding `json:"denies"`
	// Warnings are reported and do not hold the plan: results of warn rules.
	Warnings []Finding `json:"warnings"`
	// Exceptions are results that an exception rule exempted.
	Exceptions []Finding `json:"exceptions"`
}

// Allowed says whether the plan may be applied without a person: no rule
// denied it.
func (d Decision) Allowed() bool { return len(d.Denies) == 0 }

// Eval judges a plan: planJSON is the output of `tofu show -json PLANFILE`.
// Every deny, violation and warn rule of every loaded package runs against
// the plan as tofu printed it, plus the key strata holding meta.
//
// As in conftest, a rule's result is a string (the message) or an object
// whose "msg" is the message; other keys become the finding's metadata,
// "address" its Address. An exception rule of the same package that names
// the rule — without its deny_ or violation_ prefix, e.g. "delete" for
// deny_delete — moves the rule's results to Exceptions. Unlike conftest, a
// deny rule whose value is a single string or object, or true, is a finding
// too, never ignored.
//
// Any error — a plan that is not a tofu plan, a rule that fails at run
// time, a result of an unknown shape — is returned: callers must then hold
// the plan.
func (e *Engine) Eval(ctx context.Context, planJSON []byte, meta Meta) (Decision, error) {
	plan, err := decodePlan(planJSON)
	if err != nil {
		return Decision{}, fmt.Errorf("eval policy: %w", err)
	}
	plan["strata"] = meta.input()
	value, err := ast.InterfaceToValue(plan)
	if err != nil {
		return Decision{}, fmt.Errorf("eval policy: input: %w", err)
	}
	input := rego.EvalParsedInput(value)

	exempt := map[string]map[string]bool{} // namespace -> exempted rule names
	for ns, q := range e.exceptions {
		names, err := exceptions(ctx, q, input)
		if err != nil {
			return Decision{}, fmt.Errorf("eval policy data.%s.%s: %w", ns, exceptionRule, err)
		}
		exempt[ns] = names
	}

	d := Decision{Denies: []Finding{}, Warnings: []Finding{}, Exceptions: []Finding{}}
	for _, r := range e.rules {
		rs, err := r.query.Eval(ctx, input)
		if err != nil {
			return Decision{}, fmt.Errorf("eval policy data.%s.%s: %w", r.namespace, r.name, err)
		}
		var found []Finding
		for _, res := range rs {
			for _, expr := range res.Expressions {
				f, err := findings(r.namespace, r.name, expr.Value)
				if err != nil {
					return Decision{}, fmt.Errorf("eval policy data.%s.%s: %w", r.namespace, r.name, err)
				}
				found = append(found, f...)
			}
		}
		switch {
		case exempt[r.namespace][exceptionName(r.name)]:
			d.Exceptions = append(d.Exceptions, found...)
		case r.deny:
			d.Denies = append(d.Denies, found...)
		default:
			d.Warnings = append(d.Warnings, found...)
		}
	}
	for _, list := range [][]Finding{d.Denies, d.Warnings, d.Exceptions} {
		slices.SortStableFunc(list, compareFindings)
	}
	return d, nil
}

func compareFindings(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Address, b.Address),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Namespace, b.Namespace),
	)
}

func (m Meta) input() map[string]any {
	interrupted := make([]any, 0, len(m.Interrupted))
	for _, a := range m.Interrupted {
		interrupted = append(interrupted, a)
	}
	return map[string]any{
		"stack":            m.Stack,
		"client":           m.Client,
		"environment":      m.Environment,
		"environmentClass": m.EnvironmentClass,
		"cause":            m.Cause,
		"fromVersion":      m.FromVersion,
		"toVersion":        m.ToVersion,
		"interrupted":      interrupted,
		"contract":         m.Contract.input(),
	}
}

// decodePlan decodes the plan JSON without changing any of it: numbers stay
// as tofu printed them.
func decodePlan(planJSON []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(planJSON))
	dec.UseNumber()
	var plan map[string]any
	if err := dec.Decode(&plan); err != nil {
		return nil, fmt.Errorf("decode plan: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("decode plan: more than one JSON value")
	}
	if _, ok := plan["format_version"]; !ok {
		return nil, errors.New("decode plan: no format_version: want the output of `tofu show -json PLANFILE`")
	}
	return plan, nil
}

// findings turns one rule's value into findings.
func findings(ns, rule string, v any) ([]Finding, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case bool:
		if !v {
			return nil, nil
		}
		return []Finding{{Rule: rule, Namespace: ns, Message: rule + " is true"}}, nil
	case []any:
		var out []Finding
		for _, item := range v {
			f, ok, err := finding(ns, rule, item)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, f)
			}
		}
		return out, nil
	default:
		f, ok, err := finding(ns, rule, v)
		if err != nil || !ok {
			return nil, err
		}
		return []Finding{f}, nil
	}
}

// finding turns one result into a finding. An empty message is no finding,
// as in conftest.
func finding(ns, rule string, v any) (Finding, bool, error) {
	f := Finding{Rule: rule, Namespace: ns}
	switch v := v.(type) {
	case string:
		f.Message = v
	case map[string]any:
		msg, ok := v["msg"].(string)
		if !ok {
			return f, false, fmt.Errorf("result %s has no string msg", compact(v))
		}
		f.Message = msg
		for k, val := range v {
			switch k {
			case "msg":
			case "address":
				if s, ok := val.(string); ok {
					f.Address = s
					continue
				}
				fallthrough
			default:
				if f.Metadata == nil {
					f.Metadata = map[string]any{}
				}
				f.Metadata[k] = val
			}
		}
	default:
		return f, false, fmt.Errorf("result %s is neither a message nor an object with msg", compact(v))
	}
	return f, f.Message != "", nil
}

// exceptions evaluates a package's exception rule: the names of the rules
// it exempts. conftest's form is a set of lists of names
// (exception contains ["delete"] if …); a set of names works too.
func exceptions(ctx context.Context, q rego.PreparedEvalQuery, input rego.EvalOption) (map[string]bool, error) {
	rs, err := q.Eval(ctx, input)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	var add func(v any, depth int) error
	add = func(v any, depth int) error {
		switch v := v.(type) {
		case string:
			names[v] = true
		case []any:
			if depth > 1 {
				return fmt.Errorf("exception %s: want a set of lists of rule names", compact(v))
			}
			for _, item := range v {
				if err := add(item, depth+1); err != nil {
					return err
				}
			}
		case nil:
		default:
			return fmt.Errorf("exception %s: want a set of lists of rule names", compact(v))
		}
		return nil
	}
	for _, res := range rs {
		for _, expr := range res.Expressions {
			if err := add(expr.Value, 0); err != nil {
				return nil, err
			}
		}
	}
	return names, nil
}

// exceptionName is how an exception names a rule, as in conftest:
// deny_delete is "delete", violation_x is "x", and deny, violation and warn
// rules keep their whole name.
func exceptionName(rule string) string {
	for _, prefix := range []string{"deny_", "violation_"} {
		if s, ok := strings.CutPrefix(rule, prefix); ok {
			return s
		}
	}
	return rule
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
