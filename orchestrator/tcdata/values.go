package tcdata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"text/template"
	"text/template/parse"
)

// Delimiters of a values template, the Tofu Controller's.
const (
	LeftDelim  = "${{"
	RightDelim = "}}"
)

// Values is a Terraform object's spec.values, ready to render.
type Values struct {
	text string
	tmpl *template.Template
}

// ParseValues parses spec.values: the JSON the API server keeps for it,
// which is a text/template with ${{ }} delimiters.
func ParseValues(values any) (*Values, error) {
	text, err := json.Marshal(values)
	if err != nil {
		return nil, fmt.Errorf("parse values: %w", err)
	}
	t, err := Template("values", string(text))
	if err != nil {
		return nil, fmt.Errorf("parse values template: %w", err)
	}
	return &Values{text: string(text), tmpl: t}, nil
}

// Text is the template's text: spec.values as JSON.
func (v *Values) Text() string { return v.text }

// Render executes the template over the inputs (readInputsFromSecrets:
// each `as` name maps to the keys of its Secret) and decodes the result,
// which must be JSON, into the value var.values receives.
func (v *Values) Render(inputs map[string]map[string]any) (any, error) {
	data := make(map[string]any, len(inputs))
	for as, keys := range inputs {
		data[as] = keys
	}
	var buf bytes.Buffer
	if err := v.tmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("render values template: %w", err)
	}
	var out any
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("render values template: the result is not JSON (a value with a quote or a newline breaks it): %w", err)
	}
	return out, nil
}

// Ref is what a values template reads of one input: Key of the input
// named As, or every key when Key is "".
type Ref struct {
	As  string
	Key string
}

// Refs lists what the template reads of each input: .As.key reads key,
// and any other use of .As (passed whole, indexed, ranged over) reads
// every key. A reference to an input that is not in as is left out.
func (v *Values) Refs(as []string) []Ref {
	known := map[string]bool{}
	for _, a := range as {
		known[a] = true
	}
	seen := map[Ref]bool{}
	var out []Ref
	add := func(r Ref) {
		if known[r.As] && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case nil:
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.FieldNode:
			switch len(n.Ident) {
			case 0:
			case 1:
				add(Ref{As: n.Ident[0]})
			default:
				add(Ref{As: n.Ident[0], Key: n.Ident[1]})
			}
		case *parse.ChainNode:
			walk(n.Node)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		case *parse.DotNode:
			// The whole data: every input, whole.
			for _, a := range as {
				add(Ref{As: a})
			}
		}
	}
	for _, t := range v.tmpl.Templates() {
		if t.Tree != nil {
			walk(t.Tree.Root)
		}
	}
	return out
}

// ParseValuesText parses a template Text returned.
func ParseValuesText(text string) (*Values, error) {
	t, err := Template("values", text)
	if err != nil {
		return nil, fmt.Errorf("parse values template: %w", err)
	}
	return &Values{text: text, tmpl: t}, nil
}
