package flux

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml3 "go.yaml.in/yaml/v3"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"sigs.k8s.io/kustomize/api/filters/patchjson6902"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"
)

// kustomize's PatchTransformer applies a JSON6902 patch (the patch a Flux
// Kustomization's spec.patches most often holds) by writing the object
// as JSON, patching the JSON, and reading it back: most of a patched
// plain build's time. A plain build applies the operations a fleet's
// patches use (add, replace and remove) to the object's YAML tree
// instead, as evanphx/json-patch (v4, kustomize's) applies them, when
// that gives the object kustomize's round trip gives: every key a string,
// every scalar a string, a boolean, a null or a whole number JSON writes
// back as it is (kustomize reads JSON's numbers as floats), no anchor or
// alias, no "$" (postBuild substitution reads the object as YAML, which
// the round trip rewrites), and each value the patch adds written as the
// round trip writes it. Anything else goes through kustomize's own
// filter; an operation that fails leaves the build to krusty, which says
// why.

// jsonPatch is a patch kustomize reads as JSON6902 (see readJSONPatch).
type jsonPatch struct {
	// text is the patch as kustomize keeps it.
	text string
	// ops are its operations, nil when one is not applied to the YAML
	// tree (move, copy, test, the whole document).
	ops []jsonOp
}

// jsonOp is one operation of a JSON6902 patch.
type jsonOp struct {
	// op is add, replace or remove.
	op string
	// path is the JSON pointer's reference tokens, unescaped.
	path []string
	// value is what add and replace set, as kustomize's round trip
	// writes it.
	value *yaml3.Node
}

// readJSONPatch reads a patch's text as kustomize's PatchTransformer
// reads it: a JSON6902 patch when it is no strategic merge patch (kio
// cannot read it as objects) and decodes as JSON6902 (as YAML, unless it
// is a JSON list). ok is false for a strategic merge patch, and for text
// that is neither (kustomize's plugin says so).
func readJSONPatch(text string) (p *jsonPatch, ok bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, false
	}
	if _, err := resourceFactory.SliceFromBytes([]byte(text)); err == nil {
		return nil, false
	}
	raw := []byte(text)
	if text[0] != '[' {
		j, err := yaml.YAMLToJSON(raw)
		if err != nil {
			return nil, false
		}
		raw = j
	}
	decoded, err := jsonpatch.DecodePatch(raw)
	if err != nil {
		return nil, false
	}
	p = &jsonPatch{text: text}
	ops := make([]jsonOp, 0, len(decoded))
	for _, o := range decoded {
		op, ok := readJSONOp(o)
		if !ok {
			return p, true
		}
		ops = append(ops, op)
	}
	p.ops = ops
	return p, true
}

// readJSONOp reads one operation the YAML tree takes: add, replace or
// remove of a path below the document, with a value for the first two.
func readJSONOp(o jsonpatch.Operation) (jsonOp, bool) {
	op := jsonOp{op: o.Kind()}
	if op.op != "add" && op.op != "replace" && op.op != "remove" {
		return jsonOp{}, false
	}
	path, err := o.Path()
	if err != nil || !strings.HasPrefix(path, "/") {
		return jsonOp{}, false
	}
	for _, t := range strings.Split(path[1:], "/") {
		op.path = append(op.path, strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~"))
	}
	if op.op == "remove" {
		return op, true
	}
	raw, ok := o["value"]
	if !ok || raw == nil {
		return jsonOp{}, false
	}
	var v any
	if json.Unmarshal(*raw, &v) != nil {
		return jsonOp{}, false
	}
	// kustomize reads the patched JSON into a map and writes it as YAML
	// (kyaml.FromMap): the value is written so.
	n, err := kyaml.FromMap(map[string]any{"v": v})
	if err != nil {
		return jsonOp{}, false
	}
	f := n.Field("v")
	if f == nil {
		return jsonOp{}, false
	}
	op.value = f.Value.YNode()
	return op, true
}

// jsonPatchTransformer is kustomize's PatchTransformer of a JSON6902
// patch, which applies the patch's operations to the YAML tree where they
// give what kustomize's filter gives (see above).
type jsonPatchTransformer struct {
	patch *jsonPatch
	// target selects the objects it patches.
	target *patchTarget
	// setAnnotations writes an object's annotations whole, as
	// kustomize's SetAnnotations does (loader.setAnnotations).
	setAnnotations func(*resource.Resource, map[string]string) error
	// light says the objects carry no origin annotation, and the patch
	// changes no annotation (see light in plaintransform.go): an object
	// it patches on its YAML tree keeps its annotations as they are.
	light bool
}

// Transform patches every object of m the target selects, as
// kustomize's transformJson6902 does.
func (t jsonPatchTransformer) Transform(m resmap.ResMap) error {
	for _, r := range m.Resources() {
		if ok, err := t.target.selects(r); err != nil {
			return err
		} else if !ok {
			continue
		}
		direct := t.patch.ops != nil && roundTrips(r.YNode())
		if direct && t.light {
			if !t.patch.apply(r.YNode()) {
				return errNotPlain
			}
			continue
		}
		r.StorePreviousId()
		internal := kioutil.GetInternalAnnotations(&r.RNode)
		if direct {
			if !t.patch.apply(r.YNode()) {
				return errNotPlain
			}
		} else if err := r.ApplyFilter(patchjson6902.Filter{Patch: t.patch.text}); err != nil {
			return err
		}
		a := r.GetAnnotations()
		for k, v := range internal {
			a[k] = v
		}
		if err := t.setAnnotations(r, a); err != nil {
			return err
		}
	}
	return nil
}

// apply applies the patch's operations to an object's tree, in order,
// and drops its comments, as kustomize's round trip does; false where an
// operation fails (the tree is then part patched: the build is
// krusty's).
func (p *jsonPatch) apply(doc *yaml3.Node) bool {
	for _, op := range p.ops {
		if !op.apply(doc) {
			return false
		}
	}
	dropComments(doc)
	return true
}

// apply applies the operation to an object's tree as evanphx/json-patch
// v4 applies it to the object's JSON, and reports whether it did; false
// where it fails, or where an index is not written plainly (v4 takes
// "+1", "01" and "-1" too: krusty's build does those).
func (op jsonOp) apply(doc *yaml3.Node) bool {
	cur := doc
	for _, t := range op.path[:len(op.path)-1] {
		switch cur.Kind {
		case yaml3.MappingNode:
			v := mappingValue(cur, t)
			if v == nil {
				return false
			}
			cur = v
		case yaml3.SequenceNode:
			i, ok := plainIndex(t, len(cur.Content)-1)
			if !ok {
				return false
			}
			cur = cur.Content[i]
		default:
			return false
		}
		if cur.Kind == yaml3.ScalarNode {
			// JSON's null is no container, nor any other scalar.
			return false
		}
	}
	key := op.path[len(op.path)-1]
	switch cur.Kind {
	case yaml3.MappingNode:
		i := mappingIndex(cur, key)
		switch {
		case op.op == "remove" && i < 0:
			return false
		case op.op == "remove":
			cur.Content = append(cur.Content[:i], cur.Content[i+2:]...)
		case i >= 0:
			// v4 replaces a key that is missing as add does.
			cur.Content[i+1] = kyaml.CopyYNode(op.value)
		default:
			cur.Content = append(cur.Content, &yaml3.Node{Kind: yaml3.ScalarNode, Tag: "!!str", Value: key}, kyaml.CopyYNode(op.value))
		}
	case yaml3.SequenceNode:
		n := len(cur.Content)
		switch op.op {
		case "add":
			i := n
			if key != "-" {
				var ok bool
				if i, ok = plainIndex(key, n); !ok {
					return false
				}
			}
			cur.Content = append(cur.Content[:i], append([]*yaml3.Node{kyaml.CopyYNode(op.value)}, cur.Content[i:]...)...)
		case "replace":
			i, ok := plainIndex(key, n-1)
			if !ok {
				return false
			}
			cur.Content[i] = kyaml.CopyYNode(op.value)
		case "remove":
			i, ok := plainIndex(key, n-1)
			if !ok {
				return false
			}
			cur.Content = append(cur.Content[:i], cur.Content[i+1:]...)
		}
	default:
		return false
	}
	return true
}

// plainIndex reads a reference token as an index of at most most: digits
// only, without a leading zero.
func plainIndex(t string, most int) (int, bool) {
	if t == "" || (len(t) > 1 && t[0] == '0') || strings.TrimLeft(t, "0123456789") != "" || len(t) > 9 {
		return 0, false
	}
	i, err := strconv.Atoi(t)
	return i, err == nil && i <= most
}

// mappingIndex returns the index in a mapping's content of key's key
// node, or -1.
func mappingIndex(m *yaml3.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i
		}
	}
	return -1
}

// mappingValue returns key's value in a mapping, or nil.
func mappingValue(m *yaml3.Node, key string) *yaml3.Node {
	if i := mappingIndex(m, key); i >= 0 {
		return m.Content[i+1]
	}
	return nil
}

// roundTrips reports whether kustomize's JSON round trip gives back the
// object a tree is (see above): mappings of distinct string keys,
// sequences, and scalars that are strings (valid UTF-8, without "$"),
// booleans, nulls written out, or whole numbers written plainly of fewer than seven
// digits (JSON's floats of a million and more come back in exponent
// form); no anchor, alias or tag of another kind. A node kyaml made
// without a tag has the tag YAML resolves it to.
func roundTrips(n *yaml3.Node) bool {
	if n.Anchor != "" {
		return false
	}
	switch n.Kind {
	case yaml3.MappingNode:
		if n.ShortTag() != "!!map" || !uniqueScalarKeys(n) {
			return false
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].ShortTag() != "!!str" || !roundTrips(n.Content[i]) || !roundTrips(n.Content[i+1]) {
				return false
			}
		}
		return true
	case yaml3.SequenceNode:
		if n.ShortTag() != "!!seq" {
			return false
		}
		for _, c := range n.Content {
			if !roundTrips(c) {
				return false
			}
		}
		return true
	case yaml3.ScalarNode:
		switch n.ShortTag() {
		case "!!str":
			return utf8.ValidString(n.Value) && !strings.Contains(n.Value, "$")
		case "!!bool":
			return true
		case "!!null":
			// An empty null ({a} in a flow mapping) comes back from
			// kustomize's round trip as "", not null.
			return n.Value != ""
		case "!!int":
			v := strings.TrimPrefix(n.Value, "-")
			_, ok := plainIndex(v, 999999)
			return ok && n.Value != "-0"
		}
	}
	return false
}

// dropComments removes a tree's comments, which kustomize's JSON round
// trip does not keep.
func dropComments(n *yaml3.Node) {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		dropComments(c)
	}
}

// patchTarget is a patch's target and its compiled regular expressions.
type patchTarget struct {
	selector kustypes.Selector
	re       *kustypes.SelectorRegex
}

// selects reports whether the target selects r, as kustomize's
// resWrangler.Select does: by its original or current namespace and
// name, its group, version and kind, and its labels and annotations.
func (t *patchTarget) selects(r *resource.Resource) (bool, error) {
	cur, org := r.CurId(), r.OrgId()
	if !t.re.MatchNamespace(org.EffectiveNamespace()) && !t.re.MatchNamespace(cur.EffectiveNamespace()) {
		return false, nil
	}
	if !t.re.MatchName(org.Name) && !t.re.MatchName(cur.Name) {
		return false, nil
	}
	if !t.re.MatchGvk(r.GetGvk()) {
		return false, nil
	}
	// An empty selector matches every object (kustomize parses it into
	// no requirement), without the labels' and annotations' maps.
	if s := t.selector.LabelSelector; s != "" {
		if ok, err := r.MatchesLabelSelector(s); err != nil || !ok {
			return false, err
		}
	}
	if s := t.selector.AnnotationSelector; s != "" {
		return r.MatchesAnnotationSelector(s)
	}
	return true, nil
}
