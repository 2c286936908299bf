package environment

import (
	"errors"
	"fmt"
	"slices"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// Blocked is a stack that a problem in its chain holds back, as Flux holds
// back a Kustomization that fails and everything that depends on it; or,
// with Stack empty, a Kustomization that could not be built, so that the
// stacks it would bring in are not known.
type Blocked struct {
	// Stack is the Terraform object's name, and File its file; for a
	// Kustomization that could not be built, Stack is empty and File is
	// the Kustomization's.
	Stack string `json:"stack,omitempty"`
	File  string `json:"file"`
	// Kustomization brings the stack in, from KustomizationFile.
	Kustomization     string `json:"kustomization"`
	KustomizationFile string `json:"kustomizationFile,omitempty"`
	// Waiting is set when all that holds the stack back is a ConfigMap or
	// Secret that lives only in the cluster (diag.CodeInputMissing), or
	// what Flux fetches there and strata does not here (a remote base,
	// another source: diag.CodeUnreachable): it runs once that is given.
	// Otherwise the repository needs a fix.
	Waiting bool `json:"waiting,omitempty"`
	// Reason says, on one line, why: the problem, or which blocked
	// Kustomization or stack it depends on.
	Reason string `json:"reason"`
	// Held is the stack of a Waiting entry, as it would run once its
	// inputs are given: its place in the graph (Environment.Waiting).
	// Never written out: its variables may hold private values.
	Held *Stack `json:"-"`
	// Problems are the problems behind it: its own, or those of the
	// Kustomization or stack that blocks it.
	Problems diag.Problems `json:"problems"`
}

// Name is the stack's name, or for a Kustomization that could not be
// built "[Kustomization <name>]": how reports, status and the web view
// list it.
func (b Blocked) Name() string {
	if b.Stack == "" {
		return "[Kustomization " + b.Kustomization + "]"
	}
	return b.Stack
}

// String is the blocked stack on one line.
func (b Blocked) String() string {
	what := "stack " + b.Stack
	if b.Stack == "" {
		what = "Kustomization " + b.Kustomization
	}
	state := "blocked"
	if b.Waiting {
		state = "waiting"
	}
	return fmt.Sprintf("%s (%s) is %s: %s", what, b.File, state, b.Reason)
}

// IsBlocked reports whether the named stack is held back, by name.
func (e *Environment) IsBlocked(stack string) bool {
	return slices.ContainsFunc(e.Blocked, func(b Blocked) bool { return b.Stack == stack })
}

// Waiting returns the stacks that wait only for inputs that live in the
// cluster, as they would run once those are given: they have their place
// in the graph, and do not run.
func (e *Environment) Waiting() []*Stack {
	var out []*Stack
	for _, b := range e.Blocked {
		if b.Waiting && b.Held != nil {
			out = append(out, b.Held)
		}
	}
	return out
}

// Inputs lists the ConfigMaps and Secrets that the problems behind b
// wait for, each once (the first problem's keys), in the order of the
// problems.
func (b Blocked) Inputs() []diag.Input {
	var out []diag.Input
	seen := map[string]bool{}
	for _, p := range b.Problems {
		if in := p.Input; in != nil {
			if key := InputKey(in.Kind, in.Namespace, in.Name); !seen[key] {
				seen[key] = true
				out = append(out, *in)
			}
		}
	}
	return out
}

// WaitingFor lists the inputs ("Kind/namespace/name") that a waiting
// stack waits for, and what it waits to be fetched ("what FILE
// fetches"), sorted, each once.
func (b Blocked) WaitingFor() []string {
	var out []string
	for _, in := range b.Inputs() {
		out = append(out, InputKey(in.Kind, in.Namespace, in.Name))
	}
	for _, p := range b.Problems {
		if p.Code == diag.CodeUnreachable {
			out = append(out, "what "+p.File+" fetches")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Incomplete reports whether a Kustomization could not be built, so that
// the stacks it would bring in are not known: a stack missing from the
// environment may be one of them, and is not taken as removed.
func (e *Environment) Incomplete() bool {
	return slices.ContainsFunc(e.Blocked, func(b Blocked) bool { return b.Stack == "" })
}

// AllProblems returns every problem of a load, sorted, each once: those
// of the whole environment (err's), those that hold stacks back, and
// the warnings. It is what `validate --strict` refuses.
func AllProblems(env *Environment, err error) diag.Problems {
	var ps diag.Problems
	errors.As(err, &ps)
	ps = slices.Clone(ps)
	if env != nil {
		for _, b := range env.Blocked {
			ps = append(ps, b.Problems...)
		}
		ps = append(ps, env.Warnings...)
	}
	ps.Sort()
	return ps.Compact()
}

// inputKey keys inputs by kind, namespace and name.
func InputKey(kind, namespace, name string) string {
	return kind + "/" + namespace + "/" + name
}
