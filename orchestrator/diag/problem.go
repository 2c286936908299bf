package diag

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Problem is one thing wrong with an environment.
type Problem struct {
	// File is the file the problem is in, relative to the repository root.
	File string `json:"file"`
	// Object names the object, as "Kind/name" (for example
	// "Terraform/network"), or is empty when the whole file is at fault.
	Object string `json:"object,omitempty"`
	// Message says what is wrong.
	Message string `json:"message"`
	// Fix says what to do about it.
	Fix string `json:"fix,omitempty"`
	// Code, when set, classifies the problem for a caller that branches
	// on it (CodeAccessDenied, CodeInputMissing).
	Code string `json:"code,omitempty"`
	// Kustomization is the Flux Kustomization whose build or objects the
	// problem is in, and Stack the stack (Terraform object) it is about:
	// what the problem holds back. Both empty: the whole environment.
	Kustomization string `json:"kustomization,omitempty"`
	Stack         string `json:"stack,omitempty"`
	// Input, on a problem of Code CodeInputMissing, names the ConfigMap
	// or Secret waited for, for a script that gives it (--inputs).
	Input *Input `json:"input,omitempty"`
}

// Input is a ConfigMap or Secret that lives only in the cluster, with the
// keys read of it when they are known.
type Input struct {
	Kind      string   `json:"kind"`
	Namespace string   `json:"namespace"`
	Name      string   `json:"name"`
	Keys      []string `json:"keys,omitempty"`
}

// CodeAccessDenied is a reference the configuration forbids, such as a
// cross-namespace sourceRef when those are disabled: the Tofu
// Controller's AccessDenied.
const CodeAccessDenied = "AccessDenied"

// CodeInputMissing is a ConfigMap or Secret that the repository names
// but does not hold, and that no stack writes: it lives in the cluster
// (made by hand, by a bootstrap or by External Secrets). What needs it
// waits until it is given (--inputs, --kubeconfig).
const CodeInputMissing = "InputMissing"

// CodeUnreachable is something strata could not fetch that Flux fetches
// in the cluster, such as a remote kustomize base: it holds back the
// Kustomization that needs it, and a dependsOn on that Kustomization
// holds back no stack unless it brings stacks in.
const CodeUnreachable = "Unreachable"

// CodeSourceNotFound is a reference to a source that does not exist: a
// deleted object whose source went first is still destroyed, from the
// code its last run kept.
const CodeSourceNotFound = "SourceNotFound"

// String renders the problem on one line: "file: Object: message (fix: …)".
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	b.WriteString(": ")
	if p.Object != "" {
		b.WriteString(p.Object)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	if p.Fix != "" {
		b.WriteString(" (fix: ")
		b.WriteString(p.Fix)
		b.WriteString(")")
	}
	return b.String()
}

// Problems is every problem found; as an error it reports all of them.
type Problems []Problem

// Error lists every problem, one per line.
func (ps Problems) Error() string {
	lines := make([]string, 0, len(ps)+1)
	lines = append(lines, fmt.Sprintf("%d problem(s) found:", len(ps)))
	for _, p := range ps {
		lines = append(lines, "  "+p.String())
	}
	return strings.Join(lines, "\n")
}

// Sort orders problems by file, object and message, so reports are stable.
func (ps Problems) Sort() {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Object != b.Object {
			return a.Object < b.Object
		}
		return a.Message < b.Message
	})
}

// Equal reports whether two problems say the same thing.
func (p Problem) Equal(q Problem) bool {
	pi, qi := p.Input, q.Input
	p.Input, q.Input = nil, nil
	if p != q || (pi == nil) != (qi == nil) {
		return false
	}
	return pi == nil || (pi.Kind == qi.Kind && pi.Namespace == qi.Namespace && pi.Name == qi.Name && slices.Equal(pi.Keys, qi.Keys))
}

// Compact drops each problem equal to the one before it, as
// slices.Compact does, and returns what is left.
func (ps Problems) Compact() Problems {
	return slices.CompactFunc(ps, Problem.Equal)
}

// Err returns ps as an error, or nil when there are none.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}
