package flux

import (
	"fmt"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// An object's identity is its kind, namespace and name after kustomize's
// transformers, as in kustomize and in the cluster: the same ConfigMap or
// Secret rendered in two namespaces (a Component included by every
// namespace's kustomization.yaml, each with its own namespace:) is two
// objects, and one object rendered twice (the same file reached through
// two Flux Kustomizations) is one.

// based is a ConfigMap or a Secret: an object the index holds.
type based interface {
	comparable
	base() *object
}

func (o *object) base() *object { return o }

// scoped indexes the ConfigMaps or Secrets rendered: by scope (the entry
// directory's group, "" for its top level), then by name, each name
// holding its objects of every namespace in the order they came.
type scoped[T based] map[string]map[string][]T

// add registers o in a scope. When an object of the same namespace and
// name is there already, it returns that one and does not add o.
func (s scoped[T]) add(scope string, o T) (prev T, dup bool) {
	byName := s[scope]
	if byName == nil {
		byName = map[string][]T{}
		s[scope] = byName
	}
	name := o.base().Name()
	for _, p := range byName[name] {
		if p.base().Metadata.Namespace == o.base().Metadata.Namespace {
			return p, true
		}
	}
	byName[name] = append(byName[name], o)
	return prev, false
}

// get returns the object of that name in a scope that is in namespace ns,
// else one that names no namespace (Flux applies it to the namespace of
// what reads it), else the first of that name.
func (s scoped[T]) get(scope, name, ns string) T {
	return pick(s[scope][name], ns)
}

// inAny is get over every scope, in the order of their names.
func (s scoped[T]) inAny(name, ns string) T {
	var zero T
	for _, sc := range sortedKeys(s) {
		if o := s.get(sc, name, ns); o != zero {
			return o
		}
	}
	return zero
}

// pick chooses among objects of one name the one of namespace ns, else
// one without a namespace, else the first.
func pick[T based](objs []T, ns string) T {
	var zero T
	if len(objs) == 0 {
		return zero
	}
	for _, o := range objs {
		if o.base().Metadata.Namespace == ns {
			return o
		}
	}
	for _, o := range objs {
		if o.base().Metadata.Namespace == "" {
			return o
		}
	}
	return objs[0]
}

// duplicate handles an object rendered under the identity of one already
// registered, prev. Two files of that identity in one build (or both in
// the entry directory) are a problem, as kustomize would refuse them. One
// identity that two Flux Kustomizations apply (the same file reached
// through both, or two files) is one object, read as the first renders
// it: in the cluster the two Kustomizations would fight over its
// ownership, which is a warning, not a failed build. The entry directory
// counts as one of them where the other renders it from another file:
// Flux applies the entry directory with its own Kustomization (the
// bootstrap's flux-system, or a Flux Operator's FluxInstance sync).
func (l *loader) duplicate(o, prev *object, where string, same bool) {
	switch {
	case o.File != prev.File && o.by == prev.by:
		// Two files of one build, or of the entry directory.
		l.problem(duplicateObject(o, prev, where))
		return
	case o.by == prev.by || ((o.by == "" || prev.by == "") && o.File == prev.File):
		// The same build, or one file of the entry directory that a
		// Kustomization of it renders too (the entry directory read as a
		// whole, and the Kustomization that applies it).
		return
	}
	what := "the same object"
	switch {
	case o.File != prev.File:
		what = "from two files, " + prev.File + " and " + o.File
	case !same:
		what = "with other content after substitution"
	}
	l.env.Warnings = append(l.env.Warnings, diag.Problem{
		File:          o.File,
		Object:        o.ref(),
		Kustomization: o.by,
		Message: fmt.Sprintf("%s %s is applied by %s and by %s (%s): in the cluster the two would fight over its ownership; strata reads it once, as %s renders it",
			o.Kind, objectID(o), unitName(prev.by), unitName(o.by), what, unitName(prev.by)),
		Fix: fmt.Sprintf("let one Flux Kustomization apply %s %s: take %s out of the path of the other", o.Kind, objectID(o), o.File),
	})
}

// objectID is "namespace/name", or "name" for an object with no namespace.
func objectID(o *object) string {
	if o.Metadata.Namespace == "" {
		return o.Name()
	}
	return o.Metadata.Namespace + "/" + o.Name()
}

// unitName names the build that rendered an object: a Kustomization, or
// the entry directory.
func unitName(k string) string {
	if k == "" {
		return "the entry directory"
	}
	return "Kustomization " + k
}
