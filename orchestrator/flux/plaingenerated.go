package flux

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
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

// generating is what a build reads of the spec of the Flux Kustomization
// it is for, besides its path: what Flux's generator writes into the
// build, as a plain build applies it (plain, plainOK: plainGenerated), its
// spec.components, whether it decrypts (decrypts), and whether its
// spec.buildMetadata keeps origin annotations. decodeObject reads it from
// the object's map as it decodes the object, so a plain build needs no
// map of the object again; a build that is not plain gives Flux's
// generator the whole object (rendered.rawMap).
type generating struct {
	plain      plainKust
	plainOK    bool
	components []string
	decrypt    bool
	origins    bool
}

// generatingOf reads generating from a Flux Kustomization as a map. It is
// nil for the spec of most Kustomizations, which sets none of it: a plain
// build that the generator adds nothing to (see kustomization.generating).
func generatingOf(flux map[string]any) *generating {
	g := generating{decrypt: decrypts(flux)}
	g.plain, g.plainOK = plainGenerated(flux)
	g.components, _, _ = unstructured.NestedStringSlice(flux, "spec", "components")
	bm, _, _ := unstructured.NestedStringSlice(flux, "spec", "buildMetadata")
	g.origins = slices.Contains(bm, "originAnnotations")
	p := g.plain
	if g.plainOK && p.patches == nil && p.components == nil && p.namespace == "" && p.prefix == "" && p.suffix == "" &&
		g.components == nil && !g.decrypt && !g.origins {
		return nil
	}
	return &g
}

// generatingKey is a key of everything generatingOf sets in g, equal
// for two only when they are: each string is written with its length,
// each list with its length or as nil.
func generatingKey(g *generating) string {
	var b strings.Builder
	str := func(v string) {
		b.WriteString(strconv.Itoa(len(v)))
		b.WriteByte(':')
		b.WriteString(v)
	}
	list := func(nilList bool, n int) {
		if nilList {
			b.WriteString("n;")
			return
		}
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(';')
	}
	for _, f := range []bool{g.plainOK, g.decrypt, g.origins} {
		b.WriteString(strconv.FormatBool(f))
		b.WriteByte(';')
	}
	p := g.plain
	for _, v := range []string{p.namespace, p.prefix, p.suffix} {
		str(v)
	}
	for _, l := range [][]string{p.components, g.components} {
		list(l == nil, len(l))
		for _, v := range l {
			str(v)
		}
	}
	list(p.patches == nil, len(p.patches))
	for _, pt := range p.patches {
		str(pt.Path)
		str(pt.Patch)
		if o := pt.Options; o != nil {
			str(fmt.Sprintf("%+v", *o))
		}
		if t := pt.Target; t != nil {
			b.WriteByte('t')
			for _, v := range []string{t.Group, t.Version, t.Kind, t.Name, t.Namespace, t.LabelSelector, t.AnnotationSelector} {
				str(v)
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

// plainGenerated returns what Flux's generator writes of a Kustomization's
// spec into the build (targetNamespace, namePrefix, nameSuffix, patches
// and components), as a plain build applies it (see plainKust.with); ok
// is false when the spec sets another field its generator writes, or one
// of these to what a plain build leaves to the generator (not a string,
// an empty string, a patch from a file, a component that may be missing).
func plainGenerated(flux map[string]any) (g plainKust, ok bool) {
	spec, _ := flux["spec"].(map[string]any)
	for _, f := range generatorFields {
		v, set := spec[f]
		if !set {
			continue
		}
		switch f {
		case "patches":
			if g.patches, ok = fluxPatches(v); !ok {
				return plainKust{}, false
			}
			continue
		case "components":
			if g.components, ok = fluxComponents(v); !ok {
				return plainKust{}, false
			}
			if missing, _ := spec["ignoreMissingComponents"].(bool); missing {
				return plainKust{}, false
			}
			continue
		}
		s, isString := v.(string)
		switch {
		case !isString || s == "":
			return plainKust{}, false
		case f == "targetNamespace":
			g.namespace = s
		case f == "namePrefix":
			g.prefix = s
		case f == "nameSuffix":
			g.suffix = s
		default:
			return plainKust{}, false
		}
	}
	return g, true
}

// fluxPatches reads a Kustomization's spec.patches as Flux's generator
// writes them: each an inline patch and an optional target, whose fields
// are those of kustomize's selector. Anything else (another field, a
// value not a string) is left to the generator, which says what it says.
func fluxPatches(v any) ([]kustypes.Patch, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]kustypes.Patch, 0, len(list))
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, false
		}
		var p kustypes.Patch
		for k, v := range m {
			switch k {
			case "patch":
				if p.Patch, ok = v.(string); !ok {
					return nil, false
				}
			case "target":
				if p.Target, ok = fluxSelector(v); !ok {
					return nil, false
				}
			default:
				return nil, false
			}
		}
		out = append(out, p)
	}
	return out, true
}

// fluxSelector reads a patch's target as Flux's generator adapts it to
// kustomize's selector.
func fluxSelector(v any) (*kustypes.Selector, bool) {
	if v == nil {
		return nil, true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	s := &kustypes.Selector{}
	for k, v := range m {
		str, ok := v.(string)
		if !ok || !setSelector(s, k, str) {
			return nil, false
		}
	}
	return s, true
}

// fluxComponents reads a Kustomization's spec.components: each a local
// directory, as a plain build reads them (localComponent).
func fluxComponents(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		c, ok := item.(string)
		if !ok || !localComponent(c) {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// move transforms the resources of a plain build as kustomize's
// namespace, prefix and suffix transformers do, and reports whether that
// is all krusty would do to them: false when one is of a kind krusty's
// name references start from, or when two end up with one id (krusty
// refuses them, and says so).
func (g plainKust) move(rs []*resource.Resource) bool {
	if !g.moves() {
		return true
	}
	for _, r := range rs {
		if !transformedAlone(r.GetGvk()) {
			return false
		}
	}
	seen := make(map[resid.ResId]bool, len(rs))
	for _, r := range rs {
		if g.namespace != "" {
			if err := setNamespace(r, g.namespace); err != nil {
				return false
			}
		}
		if g.prefix != "" || g.suffix != "" {
			if err := rename(r, g.prefix, g.suffix); err != nil {
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
