package flux

import (
	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/filters/annotations"
	"sigs.k8s.io/kustomize/api/resmap"
	kustypes "sigs.k8s.io/kustomize/api/types"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustomize's commonAnnotations transformer sets each annotation through
// its field spec machinery: a walk of metadata/annotations for every key
// of every object, and a setter that asks yaml.v2 whether the value
// would be read as a string. For a Component's commonAnnotations on
// every stack of a fleet that was a tenth of the shape's transform time.
// commonAnnotations writes the nodes the transformer writes, and asks
// each distinct value once in a load (loader.nonString).

// annotationsField is the field spec of commonAnnotations over the kinds
// a plain build annotates (see annotatedBeyondMetadata).
var annotationsField = kustypes.FieldSpec{Path: "metadata/annotations", CreateIfNotPresent: true}

// commonAnnotations is kustomize's AnnotationsTransformerPlugin with
// annotationsField: it sets annotations on every object.
type commonAnnotations struct {
	annotations map[string]string
	// nonString is kustomize's IsValueNonString (loader.nonString).
	nonString func(string) bool
}

// Transform sets the annotations on every object of m, node for node as
// kustomize's annotations filter does. An object whose metadata is not
// one mapping, or whose annotations are not one mapping (nor absent), or
// that holds one of the keys twice, is left to the filter, as is an
// empty key (which the filter refuses).
func (t commonAnnotations) Transform(m resmap.ResMap) error {
	keys := kyaml.SortedMapKeys(t.annotations)
	for _, r := range m.Resources() {
		if t.set(r.YNode(), keys) {
			continue
		}
		if err := r.ApplyFilter(annotations.Filter{Annotations: t.annotations, FsSlice: kustypes.FsSlice{annotationsField}}); err != nil {
			return err
		}
	}
	return nil
}

// set sets the annotations of keys on the object n, and reports whether
// it could; it changes nothing when it cannot.
func (t commonAnnotations) set(n *yaml3.Node, keys []string) bool {
	if len(keys) > 0 && keys[0] == "" {
		// Sorted: an empty key is first.
		return false
	}
	meta, _ := fieldOnce(n, kyaml.MetadataField)
	if meta == nil || meta.Kind != yaml3.MappingNode || meta.Tag == kyaml.NodeTagNull {
		return false
	}
	a, count := fieldOnce(meta, kyaml.AnnotationsField)
	if count > 1 || (a != nil && (a.Kind != yaml3.MappingNode || a.Tag == kyaml.NodeTagNull)) {
		return false
	}
	// Where each key is, before anything is set: a key held twice is
	// the filter's.
	found := make([]*yaml3.Node, len(keys))
	for i, k := range keys {
		for j := 0; a != nil && j+1 < len(a.Content); j += 2 {
			if a.Content[j].Value != k {
				continue
			}
			if found[i] != nil {
				return false
			}
			found[i] = a.Content[j+1]
		}
	}
	if a == nil {
		a = &yaml3.Node{Kind: yaml3.MappingNode}
		meta.Content = append(meta.Content, &yaml3.Node{Kind: yaml3.ScalarNode, Value: kyaml.AnnotationsField}, a)
	}
	for i, k := range keys {
		v := t.annotations[k]
		if f := found[i]; f != nil {
			*f = yaml3.Node{Kind: yaml3.ScalarNode, Tag: kyaml.NodeTagString, Value: v, Style: f.Style}
			continue
		}
		value := &yaml3.Node{Kind: yaml3.ScalarNode, Tag: kyaml.NodeTagString, Value: v}
		if t.nonString(v) {
			value.Style = yaml3.DoubleQuotedStyle
		}
		a.Content = append(a.Content, &yaml3.Node{Kind: yaml3.ScalarNode, Value: k}, value)
	}
	return true
}
