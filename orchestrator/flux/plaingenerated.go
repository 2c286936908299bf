package flux

import (
	"strings"

	"sigs.k8s.io/kustomize/api/filters/namespace"
	"sigs.k8s.io/kustomize/api/filters/prefix"
	"sigs.k8s.io/kustomize/api/filters/suffix"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
)

// A Flux Kustomization's spec.targetNamespace, namePrefix and nameSuffix
// are the namespace, namePrefix and nameSuffix of the build Flux's
// generator makes: kustomize's transformers set them on every object,
// and krusty's name reference transformer then mends what refers to the
// objects moved or renamed. A plain build takes the first step itself,
// with kustomize's own filters, for objects of which it is the whole of
// krusty's work: objects of a custom kind (none of kustomize's name
// references starts from one, nor do its namespace field specs or its
// prefix and suffix exceptions name one), and ConfigMaps and Secrets
// (which refer to nothing). A build holding any other kind (a RoleBinding
// whose subjects move, a Deployment that refers to a ConfigMap) is
// krusty's.

// generated is what of a Flux Kustomization's spec its generator writes
// into the build, of what a plain build does itself.
type generated struct {
	namespace, prefix, suffix string
}

// plainGenerated returns the fields of a Flux Kustomization's spec that a
// plain build applies itself (see generated); ok is false when the spec
// sets another field its generator writes, or one of these to what is
// not a string.
func plainGenerated(flux map[string]any) (g generated, ok bool) {
	spec, _ := flux["spec"].(map[string]any)
	for _, f := range generatorFields {
		v, set := spec[f]
		if !set {
			continue
		}
		s, isString := v.(string)
		switch {
		case !isString:
			return generated{}, false
		case f == "targetNamespace":
			g.namespace = s
		case f == "namePrefix":
			g.prefix = s
		case f == "nameSuffix":
			g.suffix = s
		default:
			return generated{}, false
		}
	}
	return g, true
}

// apply transforms the resources of a plain build as kustomize's
// namespace, prefix and suffix transformers do, and reports whether that
// is all krusty would do to them: false when one is of a kind krusty's
// name references start from, or when two end up with one id (krusty
// refuses them, and says so).
func (g generated) apply(rs []*resource.Resource) bool {
	if g == (generated{}) {
		return true
	}
	for _, r := range rs {
		if !transformedAlone(r.GetGvk()) {
			return false
		}
	}
	name := types.FieldSpec{Path: "metadata/name"}
	seen := make(map[resid.ResId]bool, len(rs))
	for _, r := range rs {
		if g.namespace != "" {
			if err := r.ApplyFilter(namespace.Filter{Namespace: g.namespace, SetRoleBindingSubjects: namespace.DefaultSubjectsOnly}); err != nil {
				return false
			}
		}
		if g.prefix != "" {
			if err := r.ApplyFilter(prefix.Filter{Prefix: g.prefix, FieldSpec: name}); err != nil {
				return false
			}
		}
		if g.suffix != "" {
			if err := r.ApplyFilter(suffix.Filter{Suffix: g.suffix, FieldSpec: name}); err != nil {
				return false
			}
		}
		id := r.CurId()
		key := resid.NewResIdWithNamespace(id.Gvk, id.Name, id.EffectiveNamespace())
		if seen[key] {
			return false
		}
		seen[key] = true
	}
	return true
}

// transformedAlone reports whether moving or renaming an object of the
// kind is all a build does to it and to what it refers to: a ConfigMap or
// a Secret, or a kind of a group that is not Kubernetes' own (a custom
// resource: kustomize's name references, namespace field specs and
// prefix and suffix exceptions name Kubernetes' kinds only).
func transformedAlone(g resid.Gvk) bool {
	if g.Group == "" && g.Version == "v1" && (g.Kind == "ConfigMap" || g.Kind == "Secret") {
		return true
	}
	return g.Group != "" && !strings.HasSuffix(g.Group, ".k8s.io") && !kubernetesGroups[g.Group]
}

// kubernetesGroups are Kubernetes' own API groups that are not *.k8s.io.
var kubernetesGroups = map[string]bool{
	"apps": true, "batch": true, "autoscaling": true, "policy": true, "extensions": true,
}
