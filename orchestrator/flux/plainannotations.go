package flux

import (
	"strings"
	"unicode/utf8"

	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/resource"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustomize writes an object's annotations whole (RNode.SetAnnotations)
// after each transformer krusty runs and when it removes its build
// annotations: it drops metadata.annotations and appends it again at the
// end of metadata, its keys sorted, each value a string, double-quoted
// where a YAML 1.1 reader would take it for another type. It asks that
// of each value by decoding it with yaml.v2 (IsValueNonString), which
// was most of a patched fleet's transform time: a fleet's objects carry
// the same few annotation values. setAnnotations writes the nodes
// SetAnnotations writes, and asks each distinct value once in a load.

// setAnnotations sets r's annotations to a as kustomize's SetAnnotations
// does, node for node. An object whose metadata is not one mapping, or
// holds annotations twice, an empty key (which kustomize refuses) or a
// value that is not UTF-8 (written as binary) is left to SetAnnotations.
func (l *loader) setAnnotations(r *resource.Resource, a map[string]string) error {
	meta, at, ok := annotationsAt(r.YNode())
	if !ok {
		return r.SetAnnotations(a)
	}
	for k, v := range a {
		if k == "" || !utf8.ValidString(v) {
			return r.SetAnnotations(a)
		}
	}
	if at >= 0 {
		meta.Content = append(meta.Content[:at], meta.Content[at+2:]...)
	}
	if len(a) == 0 {
		return nil
	}
	m := &yaml3.Node{Kind: yaml3.MappingNode, Content: make([]*yaml3.Node, 0, 2*len(a))}
	for _, k := range kyaml.SortedMapKeys(a) {
		v := &yaml3.Node{Kind: yaml3.ScalarNode, Tag: kyaml.NodeTagString, Value: a[k]}
		switch {
		case strings.Contains(v.Value, "\n"):
			v.Style = yaml3.LiteralStyle
		case l.nonString(v.Value):
			v.Style = yaml3.DoubleQuotedStyle
		}
		m.Content = append(m.Content, &yaml3.Node{Kind: yaml3.ScalarNode, Value: k}, v)
	}
	meta.Content = append(meta.Content, &yaml3.Node{Kind: yaml3.ScalarNode, Value: kyaml.AnnotationsField}, m)
	return nil
}

// removeBuildAnnotations removes kustomize's build annotations from r,
// as its RemoveBuildAnnotations does (which writes the annotations
// whole, with setAnnotations).
func (l *loader) removeBuildAnnotations(r *resource.Resource) error {
	a := r.GetAnnotations()
	if len(a) == 0 {
		return nil
	}
	for _, k := range resource.BuildAnnotations {
		delete(a, k)
	}
	return l.setAnnotations(r, a)
}

// nonString is kustomize's IsValueNonString, once per value in a load.
func (l *loader) nonString(v string) bool {
	ns, ok := l.nonStrings[v]
	if !ok {
		ns = kyaml.IsValueNonString(v)
		if l.nonStrings == nil {
			l.nonStrings = map[string]bool{}
		}
		l.nonStrings[v] = ns
	}
	return ns
}

// annotationsAt finds the metadata mapping of an object's tree, and the
// index in it of its annotations' key (-1 when it has none): ok is false
// unless the object is a mapping with one metadata key, whose value is a
// mapping that holds at most one annotations key, which kustomize finds
// as setAnnotations does.
func annotationsAt(n *yaml3.Node) (meta *yaml3.Node, at int, ok bool) {
	meta, _ = fieldOnce(n, kyaml.MetadataField)
	if meta == nil || meta.Kind != yaml3.MappingNode || len(meta.Content) == 0 {
		return nil, 0, false
	}
	at = -1
	for i := 0; i+1 < len(meta.Content); i += 2 {
		if meta.Content[i].Value != kyaml.AnnotationsField {
			continue
		}
		if at >= 0 {
			return nil, 0, false
		}
		at = i
	}
	return meta, at, true
}
