package flux

import (
	"strings"

	"sigs.k8s.io/kustomize/api/filters/namespace"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/resid"
)

// A Flux Kustomization's spec.targetNamespace is the kustomization's
// namespace in the build Flux's generator makes: kustomize's namespace
// transformer sets it on every namespaced object, and krusty's name
// reference transformer then mends what refers to the objects moved. A
// plain build takes the first step itself, with kustomize's own filter,
// for objects of which it is the whole of krusty's work: objects of a
// custom kind (none of kustomize's name references starts from one), and
// ConfigMaps and Secrets (which refer to nothing). A build holding any
// other kind (a RoleBinding whose subjects move, a Deployment that refers
// to a ConfigMap) is krusty's.

// targetNamespace returns a Flux Kustomization's spec.targetNamespace,
// "" when it sets none.
func targetNamespace(flux map[string]any) string {
	spec, _ := flux["spec"].(map[string]any)
	ns, _ := spec["targetNamespace"].(string)
	return ns
}

// onlyTargetNamespace reports whether, of the fields Flux's generator
// writes into the build, the Flux Kustomization sets targetNamespace
// alone, a non-empty string.
func onlyTargetNamespace(flux map[string]any) bool {
	spec, _ := flux["spec"].(map[string]any)
	if ns, ok := spec["targetNamespace"].(string); !ok || ns == "" {
		return false
	}
	for _, f := range generatorFields {
		if _, ok := spec[f]; ok && f != "targetNamespace" {
			return false
		}
	}
	return true
}

// setNamespace sets ns on the resources of a plain build as kustomize's
// namespace transformer sets it, and reports whether that is all krusty
// would do to them: false when one is of a kind krusty's name references
// start from, or when two end up with one id (krusty refuses them, and
// says so).
func setNamespace(rs []*resource.Resource, ns string) bool {
	for _, r := range rs {
		if !namespaceMovesAlone(r.GetGvk()) {
			return false
		}
	}
	f := namespace.Filter{Namespace: ns, SetRoleBindingSubjects: namespace.DefaultSubjectsOnly}
	seen := make(map[resid.ResId]bool, len(rs))
	for _, r := range rs {
		if err := r.ApplyFilter(f); err != nil {
			return false
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

// namespaceMovesAlone reports whether moving an object of the kind to
// another namespace is all a build does to it and to what it refers to:
// a ConfigMap or a Secret, or a kind of a group that is not Kubernetes'
// own (a custom resource: kustomize's name references and namespace
// field specs name Kubernetes' kinds only).
func namespaceMovesAlone(g resid.Gvk) bool {
	if g.Group == "" && g.Version == "v1" && (g.Kind == "ConfigMap" || g.Kind == "Secret") {
		return true
	}
	return g.Group != "" && !strings.HasSuffix(g.Group, ".k8s.io") && !kubernetesGroups[g.Group]
}

// kubernetesGroups are Kubernetes' own API groups that are not *.k8s.io.
var kubernetesGroups = map[string]bool{
	"apps": true, "batch": true, "autoscaling": true, "policy": true, "extensions": true,
}
