package readers

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-iac/strata/internal/tofufiles"
)

// wildcard stands for a step whose name is only known when tofu runs.
const wildcard = "*"

// Find returns every read of contract data by the root module in dir,
// through the fed variables. Positions name files as display/<file>, so
// that a message can point at the file in the repository rather than in a
// workspace. Only the root module's own files are read, those tofu reads
// (.tf, .tofu and their JSON forms, a .tofu file standing in for the .tf
// of the same name): a variable passed to a module is passed on whole, so
// it reads every key.
func Find(dir, display string, feeds []Feed) ([]Read, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("find contract reads in %s: %w", display, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	var reads []Read
	var errs []error
	for _, name := range tofufiles.Module(names) {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			errs = append(errs, fmt.Errorf("find contract reads in %s: %w", path.Join(display, name), err))
			continue
		}
		find := FindInFile
		if tofufiles.IsJSON(name) {
			find = FindInJSONFile
		}
		rs, err := find(src, path.Join(display, name), feeds)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		reads = append(reads, rs...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return sortReads(reads), nil
}

// FindInFile returns the reads in one file's source, named file in
// positions and errors. Source that is not valid HCL is an error naming
// the file and line, as tofu would report it.
func FindInFile(src []byte, file string, feeds []Feed) ([]Read, error) {
	f, diags := hclsyntax.ParseConfig(src, file, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("find contract reads in %s: %w", file, diags)
	}
	w := newWalker(feeds)
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil, nil
	}
	// Walk returns the walker's diagnostics, and this walker has none.
	_ = hclsyntax.Walk(body, w)
	return sortReads(w.reads), nil
}

// newWalker is a walker of the fed variables.
func newWalker(feeds []Feed) *walker {
	byVar := make(map[string]Feed, len(feeds))
	for _, fd := range feeds {
		byVar[fd.Var] = fd
	}
	return &walker{feeds: byVar}
}

// walker collects the reads of fed variables, keeping the chain of nodes
// above the current one so that a reference can be followed through the
// index and attribute steps applied to it.
type walker struct {
	feeds   map[string]Feed
	parents []hclsyntax.Node
	reads   []Read
}

func (w *walker) Enter(n hclsyntax.Node) hcl.Diagnostics {
	if t, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
		w.reference(t)
	}
	w.parents = append(w.parents, n)
	return nil
}

func (w *walker) Exit(hclsyntax.Node) hcl.Diagnostics {
	w.parents = w.parents[:len(w.parents)-1]
	return nil
}

// reference records the reads of one var.X… traversal.
func (w *walker) reference(t *hclsyntax.ScopeTraversalExpr) {
	tr := t.Traversal
	if len(tr) < 2 || tr.RootName() != "var" {
		return
	}
	attr, ok := tr[1].(hcl.TraverseAttr)
	if !ok {
		return
	}
	fd, ok := w.feeds[attr.Name]
	if !ok {
		if fd, ok = w.feeds[AnyVar]; !ok {
			return
		}
		fd.Var, fd.Key = attr.Name, attr.Name
	}
	steps, _ := traversalSteps(tr[2:])
	steps = append(steps, w.beyond(t)...)
	rng := t.Range()
	pos := Pos{File: rng.Filename, Line: rng.Start.Line, Column: rng.Start.Column}
	optional := w.optional()
	for _, r := range interpret(fd, steps) {
		r.Var, r.Pos, r.Optional = fd.Var, pos, optional
		w.reads = append(w.reads, r)
	}
}

// optional reports whether the current node is an argument of try() or
// can(), which tolerate a missing attribute.
func (w *walker) optional() bool {
	for _, p := range w.parents {
		if call, ok := p.(*hclsyntax.FunctionCallExpr); ok && (call.Name == "try" || call.Name == "can") {
			return true
		}
	}
	return false
}

// beyond follows the steps applied to expression n by the nodes above it:
// var.x[local.k].y parses as a relative traversal (.y) of an index
// (local.k) of var.x.
func (w *walker) beyond(n hclsyntax.Expression) []string {
	var steps []string
	for i := len(w.parents) - 1; i >= 0; i-- {
		switch p := w.parents[i].(type) {
		case *hclsyntax.IndexExpr:
			if p.Collection != n {
				return steps
			}
			steps = append(steps, staticKey(p.Key))
			n = p
		case *hclsyntax.RelativeTraversalExpr:
			if p.Source != n {
				return steps
			}
			more, complete := traversalSteps(p.Traversal)
			steps = append(steps, more...)
			if !complete {
				return steps
			}
			n = p
		default:
			return steps
		}
	}
	return steps
}

// traversalSteps names each step of a traversal. complete is false when
// a splat cut it short.
func traversalSteps(tr hcl.Traversal) (steps []string, complete bool) {
	for _, s := range tr {
		switch s := s.(type) {
		case hcl.TraverseAttr:
			steps = append(steps, s.Name)
		case hcl.TraverseIndex:
			steps = append(steps, keyName(s.Key))
		default:
			return steps, false
		}
	}
	return steps, true
}

// staticKey names an index expression's key when it is a constant
// string, else wildcard.
func staticKey(e hclsyntax.Expression) string {
	if len(e.Variables()) > 0 {
		return wildcard
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() {
		return wildcard
	}
	return keyName(v)
}

func keyName(v cty.Value) string {
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		return v.AsString()
	}
	return wildcard
}

// interpret turns the steps after var.X into the reads they make, by the
// feed's shape.
func interpret(fd Feed, steps []string) []Read {
	switch fd.Shape {
	case Value:
		return []Read{{Contract: fd.Contract, Section: fd.Section, Key: fd.Key}}
	case Keys:
		return []Read{{Contract: fd.Contract, Section: fd.Section, Key: step(steps, 0)}}
	case DocumentSet:
		contracts := fd.Contracts
		if c := step(steps, 0); c != "" {
			if !slices.Contains(fd.Contracts, c) {
				return nil // not a contract the set holds: tofu's own error
			}
			contracts = []string{c}
		}
		var rest []string
		if len(steps) > 1 {
			rest = steps[1:]
		}
		var out []Read
		for _, c := range contracts {
			out = append(out, documentRead(c, rest)...)
		}
		return out
	default:
		return documentRead(fd.Contract, steps)
	}
}

// documentRead is the read of a document's steps: section, then key.
// Steps into the document's other fields (version, stack…) read no key.
func documentRead(contract string, steps []string) []Read {
	section := step(steps, 0)
	switch section {
	case "", SectionPublic, SectionPrivate:
	default:
		return nil
	}
	return []Read{{Contract: contract, Section: section, Key: step(steps, 1)}}
}

// step is steps[i], or "" when the traversal stopped before it or it is
// only known at run time.
func step(steps []string, i int) string {
	if i >= len(steps) || steps[i] == wildcard {
		return ""
	}
	return steps[i]
}
