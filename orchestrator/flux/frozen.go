package flux

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/strata-iac/strata/internal/celexpr"
)

// What Flux does not apply (kustomize-controller's apply options, with
// fluxcd/pkg/ssa): an object whose labels or annotations hold one of
// these, case aside, is skipped. Excluded objects are never created nor
// changed; an if-not-present one is created once, then never changed.
const (
	reconcileKey = "kustomize.toolkit.fluxcd.io/reconcile"
	ssaKey       = "kustomize.toolkit.fluxcd.io/ssa"
)

// freeze is why Flux applies no change to a Terraform object, and how
// to have it apply them again.
type freeze struct {
	why, fix string
	// once says it holds only once the stack has run (ssa: IfNotPresent).
	once bool
}

// frozen says why Flux applies no change to a Terraform object that the
// Kustomization k renders (environment.Stack's Frozen); nil when it
// applies them:
//   - the object's labels or annotations exclude it: reconcile: disabled
//     or ssa: Ignore; ssa: IfNotPresent once it exists;
//   - a dependsOn readyExpr of k is false (notReady): Flux waits;
//   - k is suspended (spec.suspend), so Flux applies nothing of its
//     build;
//   - k depends on a Kustomization of the same source that is frozen so:
//     kustomize-controller waits until that one applied the source's
//     revision, which a suspended one never does (a dependsOn entry with
//     a readyExpr replaces that check, and is not followed).
func (l *loader) frozen(k *kustomization, tf *terraform) *freeze {
	md := tf.Metadata
	for _, m := range []map[string]string{md.Annotations, md.Labels} {
		for _, x := range []struct{ key, value, does string }{
			{reconcileKey, "disabled", "applies no change to it"},
			{ssaKey, "Ignore", "applies no change to it"},
			{ssaKey, "IfNotPresent", "created it once and applies no change to it"},
		} {
			if strings.EqualFold(m[x.key], x.value) {
				return &freeze{
					why:  fmt.Sprintf("Terraform/%s in %s is marked %s: %s, so Flux %s", tf.Name(), tf.File, x.key, m[x.key], x.does),
					fix:  fmt.Sprintf("remove %s from Terraform/%s in %s for Flux, and strata, to apply its changes", x.key, tf.Name(), tf.File),
					once: x.value == "IfNotPresent",
				}
			}
		}
	}
	if !k.heldKnown {
		k.held, k.heldKnown = l.kustomizationFrozen(k), true
	}
	return k.held
}

// kustomizationFrozen is why Flux applies no change to anything k
// renders (a readyExpr false, k or a dependency suspended), or nil: the
// part of frozen that is the Kustomization's, worked out once for all
// its Terraform objects.
func (l *loader) kustomizationFrozen(k *kustomization) *freeze {
	if f := l.notReady(k); f != nil {
		return f
	}
	root, path := l.suspended(k, map[string]bool{})
	if root == nil {
		return nil
	}
	why := fmt.Sprintf("Kustomization %s (%s) is suspended (spec.suspend: true), so Flux applies none of its changes", root.unit(), root.File)
	if root != k {
		why = fmt.Sprintf("Kustomization %s (%s) depends on Kustomization %s, which is suspended (spec.suspend: true in %s), so Flux applies none of their changes: it waits until %s has applied this revision",
			k.unit(), k.File, strings.Join(append(path, root.unit()), " → "), root.File, root.unit())
	}
	return &freeze{why: why, fix: fmt.Sprintf("resume Kustomization %s (spec.suspend: false in %s, or flux resume kustomization %s) for Flux, and strata, to apply its changes", root.unit(), root.File, root.Name())}
}

// notReady says why Flux waits to apply k's build when a dependsOn
// readyExpr of k is false, evaluated as kustomize-controller evaluates it
// (self is k, dep the dependency, as the repository renders them); nil
// when each is true, or cannot be told here: one that reads what only the
// cluster has (a status) is left to the cluster, and the dependency taken
// as ready.
func (l *loader) notReady(k *kustomization) *freeze {
	for _, d := range k.Spec.DependsOn {
		if d.ReadyExpr == "" {
			continue
		}
		u, _ := l.dependency(k, d)
		dep := l.kustomizations[u]
		if dep == nil {
			continue
		}
		ready, err := celexpr.Eval(l.ctx, d.ReadyExpr, map[string]any{"self": k.asMap(), "dep": dep.asMap()})
		if err != nil || ready {
			continue
		}
		return &freeze{
			why: fmt.Sprintf("Kustomization %s (%s) depends on Kustomization %s, which is not ready according to readyExpr (%s is false), so Flux applies none of its changes: it waits (DependencyNotReady)", k.unit(), k.File, dep.unit(), d.ReadyExpr),
			fix: fmt.Sprintf("change Kustomization %s or %s so that the readyExpr of its dependsOn entry %s holds, in %s, for Flux, and strata, to apply its changes", k.unit(), dep.unit(), d.Name, k.File),
		}
	}
	return nil
}

// asMap is the Kustomization as a readyExpr sees it: its apiVersion,
// kind, metadata and the spec fields strata reads (its status is the
// cluster's).
func (k *kustomization) asMap() map[string]any {
	b, err := json.Marshal(struct {
		meta
		Spec any `json:"spec"`
	}{k.meta, k.Spec})
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// suspended returns the suspended Kustomization that keeps Flux from
// applying k's build: k itself, or one of the same source that k
// depends on, through the Kustomizations of path (k excluded); nil when
// none does. seen guards against a cycle of dependsOn, which the graph
// reports.
func (l *loader) suspended(k *kustomization, seen map[string]bool) (*kustomization, []string) {
	if seen[k.unit()] {
		return nil, nil
	}
	seen[k.unit()] = true
	if k.Spec.Suspend {
		return k, nil
	}
	for _, d := range k.Spec.DependsOn {
		u, _ := l.dependency(k, d)
		dep := l.kustomizations[u]
		if d.ReadyExpr != "" || dep == nil || !sameSource(k, dep) {
			continue
		}
		if root, path := l.suspended(dep, seen); root != nil {
			if root != dep {
				path = append([]string{dep.unit()}, path...)
			}
			return root, path
		}
	}
	return nil, nil
}

// sameSource reports whether two Kustomizations build from one source,
// as kustomize-controller compares them before it waits for a
// dependency's revision.
func sameSource(a, b *kustomization) bool {
	ra, rb := a.Spec.SourceRef, b.Spec.SourceRef
	if ra == nil || rb == nil {
		return ra == rb
	}
	nsa, nsb := ra.Namespace, rb.Namespace
	if nsa == "" {
		nsa = namespaceOf(&a.object)
	}
	if nsb == "" {
		nsb = namespaceOf(&b.object)
	}
	return ra.Kind == rb.Kind && ra.Name == rb.Name && nsa == nsb
}
