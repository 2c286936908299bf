package flux

import (
	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/filters/namespace"
	"sigs.k8s.io/kustomize/api/filters/prefix"
	"sigs.k8s.io/kustomize/api/filters/suffix"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustomize's namespace, prefix and suffix filters move and rename an
// object through its field spec machinery: a path walk, and a setter that
// asks yaml.v2 whether the new value would be read as a string (whose
// answer the setter then overwrites with the old value's style). For a
// targetNamespace or namePrefix on every Kustomization of a fleet that
// was a tenth of the shape's transform time. setNamespace and rename
// write the nodes they write.

// nameField is the field spec of an object's name, which Flux's
// namePrefix and nameSuffix change.
var nameField = kustypes.FieldSpec{Path: "metadata/name"}

// rename sets r's name to prefix + name + suffix as kustomize's prefix
// and then suffix filters do, node for node: a new plain scalar in place
// of the old, of the old one's style, with no tag, no comments and no
// position. An object whose metadata or name is not as every object a
// plain build reads has them (one metadata mapping, one name, a string)
// is left to the filters.
func rename(r *resource.Resource, prefixed, suffixed string) error {
	if n, ok := nameAt(r.YNode()); ok {
		*n = yaml3.Node{Kind: yaml3.ScalarNode, Value: prefixed + n.Value + suffixed, Style: n.Style}
		return nil
	}
	if prefixed != "" {
		if err := r.ApplyFilter(prefix.Filter{Prefix: prefixed, FieldSpec: nameField}); err != nil {
			return err
		}
	}
	if suffixed != "" {
		return r.ApplyFilter(suffix.Filter{Suffix: suffixed, FieldSpec: nameField})
	}
	return nil
}

// setNamespace sets r's namespace as kustomize's namespace filter does
// for the objects a plain build moves (no field specs of their own, the
// default subjects of a role binding only), node for node: a string of
// the old one's style in place of the old one, or one appended to
// metadata; nothing for a kind kustomize knows to be cluster-scoped. An
// object whose metadata or namespace is not as every object a plain
// build reads has them (one metadata mapping, at most one namespace, a
// string) is left to the filter.
func setNamespace(r *resource.Resource, ns string) error {
	if r.GetGvk().IsClusterScoped() {
		return nil
	}
	meta, _ := fieldOnce(r.YNode(), kyaml.MetadataField)
	if meta != nil && meta.Kind == yaml3.MappingNode && meta.Tag != kyaml.NodeTagNull {
		n, count := fieldOnce(meta, kyaml.NamespaceField)
		switch {
		case n != nil && n.Kind == yaml3.ScalarNode && (n.Tag == "" || n.Tag == kyaml.NodeTagString):
			*n = yaml3.Node{Kind: yaml3.ScalarNode, Tag: kyaml.NodeTagString, Value: ns, Style: n.Style}
			return nil
		case count == 0:
			meta.Content = append(meta.Content,
				&yaml3.Node{Kind: yaml3.ScalarNode, Value: kyaml.NamespaceField},
				&yaml3.Node{Kind: yaml3.ScalarNode, Tag: kyaml.NodeTagString, Value: ns})
			return nil
		}
	}
	return r.ApplyFilter(namespace.Filter{Namespace: ns, SetRoleBindingSubjects: namespace.DefaultSubjectsOnly})
}

// nameAt finds the scalar of an object's metadata.name: ok is false
// unless the object is a mapping with one metadata key, whose value is a
// mapping with one name key, whose value is a scalar string.
func nameAt(n *yaml3.Node) (*yaml3.Node, bool) {
	meta, _ := fieldOnce(n, kyaml.MetadataField)
	if meta == nil || meta.Kind != yaml3.MappingNode {
		return nil, false
	}
	name, _ := fieldOnce(meta, kyaml.NameField)
	if name == nil || name.Kind != yaml3.ScalarNode || (name.Tag != "" && name.Tag != kyaml.NodeTagString) {
		return nil, false
	}
	return name, true
}
