package tofu

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	tfjson "github.com/hashicorp/terraform-json"
)

// Plan is a saved plan as `tofu show -json` prints it.
type Plan struct {
	// JSON is the plan exactly as `tofu show -json` printed it.
	JSON json.RawMessage
	// Changes are the resource changes that are not no-ops, in plan order.
	Changes []Change
	// OutputChanges names the root outputs whose value changes.
	OutputChanges []string
	// Outputs names the root outputs once the plan is applied, sorted.
	Outputs []string
}

// Change is one planned resource change.
type Change struct {
	Address       string
	ModuleAddress string
	Type          string
	// Actions are tofu's actions: ["create"], ["update"], ["delete"],
	// ["delete","create"], ["create","delete"], ["read"].
	Actions []string
}

// Verb is the change in the words of the seed's log lines: create, update,
// destroy, replace or read.
func (c Change) Verb() string {
	switch {
	case len(c.Actions) == 2:
		return "replace"
	case slices.Contains(c.Actions, "create"):
		return "create"
	case slices.Contains(c.Actions, "update"):
		return "update"
	case slices.Contains(c.Actions, "delete"):
		return "destroy"
	case slices.Contains(c.Actions, "read"):
		return "read"
	default:
		return "no-op"
	}
}

// Summary counts the plan's changes as tofu does: a replace counts as one
// to add and one to destroy.
func (p *Plan) Summary() Summary {
	var s Summary
	for _, c := range p.Changes {
		for _, a := range c.Actions {
			switch a {
			case "create":
				s.Add++
			case "update":
				s.Change++
			case "delete":
				s.Remove++
			}
		}
	}
	return s
}

// HasChanges reports whether applying the plan changes anything: a
// resource or a root output.
func (p *Plan) HasChanges() bool {
	return len(p.Changes) > 0 || len(p.OutputChanges) > 0
}

// Show reads a saved plan file with `tofu show -json`.
func (w *Workspace) Show(ctx context.Context, planFile string) (*Plan, error) {
	raw, err := w.showJSON(ctx, planFile)
	if err != nil {
		return nil, fmt.Errorf("tofu show %s: %w", planFile, err)
	}
	p, err := ParsePlan(raw)
	if err != nil {
		return nil, fmt.Errorf("tofu show %s: %w", planFile, err)
	}
	return p, nil
}

// ShowText renders a saved plan as `tofu show -no-color` prints it for
// people: to be kept for them to read (the Tofu Controller's readable
// plan), never parsed.
func (w *Workspace) ShowText(ctx context.Context, planFile string) ([]byte, error) {
	var out bytes.Buffer
	if _, err := w.command(ctx, &out, "show", "-no-color", planFile); err != nil {
		return nil, fmt.Errorf("tofu show %s: %w", planFile, err)
	}
	return out.Bytes(), nil
}

// ParsePlan reads plan JSON as `tofu show -json` prints it.
func ParsePlan(data []byte) (*Plan, error) {
	var tp tfjson.Plan
	if err := json.Unmarshal(data, &tp); err != nil {
		return nil, fmt.Errorf("parse plan json: %w", err)
	}
	p := &Plan{JSON: json.RawMessage(data)}
	for _, rc := range tp.ResourceChanges {
		if rc == nil || rc.Change == nil || rc.Change.Actions.NoOp() {
			continue
		}
		actions := make([]string, 0, len(rc.Change.Actions))
		for _, a := range rc.Change.Actions {
			actions = append(actions, string(a))
		}
		p.Changes = append(p.Changes, Change{
			Address:       rc.Address,
			ModuleAddress: rc.ModuleAddress,
			Type:          rc.Type,
			Actions:       actions,
		})
	}
	for name, oc := range tp.OutputChanges {
		if oc != nil && !oc.Actions.NoOp() {
			p.OutputChanges = append(p.OutputChanges, name)
		}
	}
	slices.Sort(p.OutputChanges)
	if tp.PlannedValues != nil {
		for name := range tp.PlannedValues.Outputs {
			p.Outputs = append(p.Outputs, name)
		}
		slices.Sort(p.Outputs)
	}
	return p, nil
}

// showJSON runs `tofu show -json PLAN` and returns its output byte for byte.
// terraform-exec only hands the plan back decoded into its own types, and
// policies must see the JSON exactly as tofu prints it.
func (w *Workspace) showJSON(ctx context.Context, planFile string) ([]byte, error) {
	var out bytes.Buffer
	if _, err := w.command(ctx, &out, "show", "-json", "-no-color", planFile); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
