package flux

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/resource"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/yamllimits"
)

// elideKeys is the width past which a mapping is read past kustomize:
// kyaml reads a mapping of 1,000 keys in about 5 ms, and four times that
// time for twice the keys.
var elideKeys = 1000

// elideWide says builds read wide mappings past kustomize; tests turn it
// off to build every mapping with kustomize itself.
var elideWide = true

// Reading a wide mapping past kustomize.
//
// kustomize reads every document with kyaml's de-anchoring, which merges
// each mapping into a copy of itself key by key, looking each key up from
// the start: the time grows with the square of the mapping's keys, about
// a second for 10,000 keys and ten minutes for 190,000. For a mapping
// that holds no anchor, alias or merge key, the de-anchoring gives back
// the very mapping it was given. So the loader hands kustomize such a
// wide mapping as a one-key placeholder, and puts the mapping back in the
// objects kustomize built. When the build changed a placeholder (a patch
// or a merging generator wrote into the mapping, labels went into it) or
// failed with one, the build is made again with the mappings themselves,
// as long as each is at most MaxMappingKeys wide; a wider one is a
// problem.

// elision is the wide mappings one build reads past kustomize.
type elision struct {
	// key is the placeholder key, random per build so that no manifest
	// holds it.
	key string
	// mappings are the mappings read past kustomize, by placeholder id.
	mappings map[string]*elided
	// transform, when set, turns a mapping's content into what it
	// becomes where it was read past (see substituted).
	transform func(content []*yaml.Node) ([]*yaml.Node, error)
}

// elided is one mapping read past kustomize.
type elided struct {
	file    string
	path    string
	keys    int
	content []*yaml.Node
}

// newElision returns an elision with a fresh placeholder key.
func newElision() *elision {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return &elision{key: "strata-elided-" + hex.EncodeToString(b), mappings: map[string]*elided{}}
}

// wide is a mapping wider than elideKeys, and whether it can be read past
// kustomize.
type wide struct {
	node     *yaml.Node
	path     string
	keys     int
	elidable bool
}

// wideMappings finds the mappings of a document wider than elideKeys. One
// can be read past kustomize when the document holds no anchor, alias or
// merge key, asks for no hash suffix, and the mapping is neither the
// object itself nor under a metadata field (which name, label and
// annotation transformers change), and holds each key once.
func wideMappings(doc *yaml.Node, anchored bool) []wide {
	var out []wide
	hashed := needsHash(doc)
	var walk func(n *yaml.Node, path []string, underMeta bool)
	walk = func(n *yaml.Node, path []string, underMeta bool) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path, underMeta)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, append(path, "["+strconv.Itoa(i)+"]"), underMeta)
			}
		case yaml.MappingNode:
			if keys := len(n.Content) / 2; keys > elideKeys {
				ok := !anchored && !hashed && !underMeta && len(path) > 0 && uniqueScalarKeys(n)
				out = append(out, wide{node: n, path: strings.Join(path, "."), keys: keys, elidable: ok})
				if ok {
					return
				}
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				walk(n.Content[i+1], append(path, k), underMeta || k == "metadata")
			}
		}
	}
	walk(doc, nil, false)
	return out
}

// uniqueScalarKeys reports whether every key of a mapping is a scalar
// given once.
func uniqueScalarKeys(n *yaml.Node) bool {
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode || seen[k.Value] {
			return false
		}
		seen[k.Value] = true
	}
	return true
}

// needsHash reports whether a document asks kustomize for a hash suffix,
// which is computed over its data.
func needsHash(doc *yaml.Node) bool {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	ann := field(field(root, "metadata"), "annotations")
	if ann == nil {
		return false
	}
	for i := 0; i+1 < len(ann.Content); i += 2 {
		if k := ann.Content[i].Value; strings.Contains(k, "needs-hash") || strings.Contains(k, "needsHashSuffix") {
			return true
		}
	}
	return false
}

// field returns the value of a mapping's key, nil when there is none.
func field(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// fieldOnce returns the value of a mapping's key and how many times the
// mapping holds the key; the value is nil unless it holds it once. A
// plain build writes a field as kustomize would only then: kustomize
// reads the first of two, and writes what it reads.
func fieldOnce(n *yaml.Node, key string) (*yaml.Node, int) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, 0
	}
	var v *yaml.Node
	count := 0
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			v = n.Content[i+1]
			count++
		}
	}
	if count != 1 {
		return nil, count
	}
	return v, count
}

// readShaped checks the shape of a manifest file's documents against the
// limits, and returns the file as kustomize is to read it: with its
// elidable wide mappings replaced by placeholders when e is set. A wide
// mapping that cannot be elided, or any when e is nil, is a problem when
// it passes MaxMappingKeys.
func readShaped(file string, data []byte, docs []*yaml.Node, e *elision) ([]byte, []diag.Problem) {
	// Each document measured once: for the limits, and for whether its
	// wide mappings may be read past kustomize.
	shapes := make([]yamllimits.Shape, len(docs))
	var ps []diag.Problem
	for i, d := range docs {
		shapes[i] = yamllimits.Measure(d)
		ps = append(ps, yamllimits.Problems(file, shapes[i])...)
	}
	var mine []wide
	for i, d := range docs {
		for _, w := range wideMappings(d, shapes[i].Anchored) {
			if w.elidable && e != nil {
				mine = append(mine, w)
				continue
			}
			if w.keys > MaxMappingKeys {
				ps = append(ps, widthProblem(file, w.path, w.node.Line, w.keys, ""))
			}
		}
	}
	if len(mine) == 0 {
		return data, ps
	}
	ids := make([]string, len(mine))
	for i, w := range mine {
		ids[i] = "m" + strconv.Itoa(len(e.mappings))
		e.mappings[ids[i]] = &elided{file: file, path: w.path, keys: w.keys, content: w.node.Content}
		w.node.Content = []*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.key},
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: ids[i]},
		}
	}
	if out, ok := encodeSame(docs); ok {
		return out, ps
	}
	// The file does not survive being written again as it was read: it
	// is left to kustomize as written, and the limit holds for it.
	for i, w := range mine {
		w.node.Content = e.mappings[ids[i]].content
		delete(e.mappings, ids[i])
		if w.keys > MaxMappingKeys {
			ps = append(ps, widthProblem(file, w.path, w.node.Line, w.keys, ""))
		}
	}
	return data, ps
}

// encodeSame writes documents as YAML again, leaving out the empty ones
// as kustomize does, and reports whether what it wrote reads back as the
// same values.
func encodeSame(docs []*yaml.Node) ([]byte, bool) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	var want []any
	for _, d := range docs {
		if d.Kind == yaml.DocumentNode && len(d.Content) == 0 {
			continue
		}
		v, err := decodeNode(d)
		if err != nil {
			return nil, false
		}
		want = append(want, v)
		if err := enc.Encode(d); err != nil {
			return nil, false
		}
	}
	if err := enc.Close(); err != nil {
		return nil, false
	}
	again, ps := decodeYAML("", buf.Bytes())
	if len(ps) > 0 {
		return nil, false
	}
	var got []any
	for _, d := range again {
		v, err := decodeNode(d)
		if err != nil {
			return nil, false
		}
		got = append(got, v)
	}
	return buf.Bytes(), reflect.DeepEqual(want, got)
}

// widthProblem is the problem of a mapping wider than MaxMappingKeys that
// kustomize must read; why says why, when it is not the mapping itself.
func widthProblem(file, path string, line, keys int, why string) diag.Problem {
	at := ""
	if line > 0 {
		at = fmt.Sprintf(" (line %d)", line)
	}
	msg := fmt.Sprintf("the mapping %s%s holds %d keys, more than the %d of one mapping strata lets kustomize read: kustomize's reader takes time that grows with the square of a mapping's keys", path, at, keys, MaxMappingKeys)
	if why != "" {
		msg += "; " + why
	}
	return diag.Problem{
		File:    file,
		Message: msg,
		Fix:     fmt.Sprintf("split %s of %s into objects of at most %d keys each, or leave it out of patches, generators and transformers (strata reads a wide mapping past kustomize when kustomize does not change it) and out of anchors and aliases", path, file, MaxMappingKeys),
	}
}

// errTouched says that a build changed a mapping read past kustomize.
var errTouched = errors.New("a placeholder of a mapping read past kustomize was changed")

// restore puts the elided mappings back into the objects kustomize built,
// or returns errTouched when the build changed a placeholder.
func (e *elision) restore(resources []*resource.Resource) error {
	for _, r := range resources {
		if err := e.restoreNode(r.YNode()); err != nil {
			return err
		}
	}
	return nil
}

// restoreNode restores the placeholders under n.
func (e *elision) restoreNode(n *yaml.Node) error {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if strings.Contains(n.Value, e.key) {
			return errTouched
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value != e.key {
				continue
			}
			v := n.Content[i+1]
			m, ok := e.mappings[v.Value]
			if len(n.Content) != 2 || !ok || v.Kind != yaml.ScalarNode {
				return errTouched
			}
			if e.transform != nil {
				c, err := e.transform(m.content)
				if err != nil {
					return err
				}
				n.Content = c
				return nil
			}
			n.Content = copyNodes(m.content)
			return nil
		}
	}
	for _, c := range n.Content {
		if err := e.restoreNode(c); err != nil {
			return err
		}
	}
	return nil
}

// widest returns the widest mapping read past kustomize.
func (e *elision) widest() *elided {
	var w *elided
	for _, m := range e.mappings {
		if w == nil || m.keys > w.keys || m.keys == w.keys && m.file+m.path < w.file+w.path {
			w = m
		}
	}
	return w
}

// copyNodes copies nodes deeply: a mapping read past kustomize can be put
// back into more than one object, and substitution changes each in place.
func copyNodes(ns []*yaml.Node) []*yaml.Node {
	out := make([]*yaml.Node, len(ns))
	for i, n := range ns {
		c := *n
		if len(n.Content) > 0 {
			c.Content = copyNodes(n.Content)
		}
		out[i] = &c
	}
	return out
}

// objectMap is an object kustomize built as a map, as r.Map gives it.
// yaml.v3 checks every key of a mapping it decodes against every other
// one, which for a mapping put back by restore takes time that grows with
// the square of its keys; objectMap decodes the plain collections itself
// (no tag, anchor or merge key; string keys given once), as yaml.v3
// does, and leaves everything else to yaml.v3.
func objectMap(r *resource.Resource) (map[string]any, error) {
	n := r.YNode()
	if n == nil || n.Kind != yaml.MappingNode || !plainMapping(n) {
		return r.Map()
	}
	v, err := decodeNode(n)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return r.Map()
	}
	return m, nil
}

// plainMapping reports whether a mapping decodes into a map[string]any
// of its pairs: untagged, without anchor, and with string keys given once
// (a merge key is no string).
func plainMapping(n *yaml.Node) bool {
	if (n.Tag != "" && n.Tag != "!!map") || n.Anchor != "" {
		return false
	}
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" || seen[k.Value] {
			return false
		}
		seen[k.Value] = true
	}
	return true
}

// decodeNode decodes a node as yaml.v3 decodes it into an any.
func decodeNode(n *yaml.Node) (any, error) {
	switch {
	case n.Kind == yaml.DocumentNode && len(n.Content) == 1:
		return decodeNode(n.Content[0])
	case n.Kind == yaml.MappingNode && plainMapping(n):
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := decodeNode(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case n.Kind == yaml.SequenceNode && (n.Tag == "" || n.Tag == "!!seq") && n.Anchor == "":
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := decodeNode(c)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		return s, nil
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		// What yaml.v3 decodes a string into, without setting up a
		// decoder for each scalar.
		return n.Value, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// elideForSubstitution reads the wide mappings of a built object past
// postBuild substitution, which Flux runs on the object's YAML through
// yaml.v3's quadratic decoding: a plain mapping of more than elideKeys
// keys (see plainMapping) in which no scalar holds a "$" comes through
// substitution unchanged, and is replaced by a placeholder (put back with
// restoreNode). It returns the widest mapping it had to leave, with its
// path, when that is wider than MaxMappingKeys.
func (e *elision) elideForSubstitution(n *yaml.Node) (path string, keys int) {
	var walk func(n *yaml.Node, at []string)
	walk = func(n *yaml.Node, at []string) {
		if n.Kind == yaml.MappingNode && len(n.Content)/2 > elideKeys {
			if plainMapping(n) && !holdsDollar(n) && len(at) > 0 {
				id := "m" + strconv.Itoa(len(e.mappings))
				e.mappings[id] = &elided{path: strings.Join(at, "."), keys: len(n.Content) / 2, content: n.Content}
				n.Content = []*yaml.Node{
					{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.key},
					{Kind: yaml.ScalarNode, Tag: "!!str", Value: id},
				}
				return
			}
			if k := len(n.Content) / 2; k > MaxMappingKeys && k > keys {
				path, keys = strings.Join(at, "."), k
			}
		}
		for i, c := range n.Content {
			step := "[" + strconv.Itoa(i) + "]"
			if n.Kind == yaml.MappingNode {
				if i%2 == 0 {
					continue
				}
				step = n.Content[i-1].Value
			}
			walk(c, append(at, step))
		}
	}
	walk(n, nil)
	return path, keys
}

// holdsDollar reports whether a scalar under n holds a "$", which
// substitution may change.
func holdsDollar(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode || n.Kind == yaml.AliasNode {
		return strings.Contains(n.Value, "$")
	}
	for _, c := range n.Content {
		if holdsDollar(c) {
			return true
		}
	}
	return false
}

// substituted is what postBuild substitution makes of a mapping's content
// that holds no "$": Flux's SubstituteVariables writes the object as JSON
// (kyaml's YAML of it, decoded), as YAML again, substitutes, and reads it
// back through JSON, which turns, say, a timestamp into its string. This
// is that path for the mapping alone, decoded without yaml.v3's quadratic
// key check.
//
// A mapping of strings alone (every key and value a scalar that reads as
// a string, in valid UTF-8) comes through that path as it went in, and
// is given back as it is: the path costs seconds on 10 MB.
func substituted(content []*yaml.Node) ([]*yaml.Node, error) {
	if onlyStrings(content) {
		return copyNodes(content), nil
	}
	s, err := kyaml.NewRNode(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: content}).String()
	if err != nil {
		return nil, err
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(s), &n); err != nil {
		return nil, err
	}
	v, err := decodeNode(&n)
	if err != nil {
		return nil, err
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	y, err := sigsyaml.JSONToYAML(j)
	if err != nil {
		return nil, err
	}
	if j, err = sigsyaml.YAMLToJSON(y); err != nil {
		return nil, err
	}
	var back any
	if err := json.Unmarshal(j, &back); err != nil {
		return nil, err
	}
	text, err := kyaml.Marshal(back)
	if err != nil {
		return nil, err
	}
	r, err := kyaml.Parse(string(text))
	if err != nil {
		return nil, err
	}
	if r.YNode().Kind != yaml.MappingNode {
		return nil, fmt.Errorf("substituted mapping reads back as %v", r.YNode().Kind)
	}
	return r.YNode().Content, nil
}

// onlyStrings reports whether a mapping's content is scalars that read as
// strings, in valid UTF-8 (JSON would replace invalid bytes): what
// substituted's JSON round trip keeps as it is.
func onlyStrings(content []*yaml.Node) bool {
	for _, n := range content {
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || !utf8.ValidString(n.Value) {
			return false
		}
	}
	return true
}
