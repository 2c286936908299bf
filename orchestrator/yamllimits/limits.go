package yamllimits

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// The limits of one YAML document. kustomize's reader (kyaml) expands
// every alias into a copy and copies every mapping's subtree once per
// mapping above it: past these, a document is refused before it reads it.
const (
	// MaxNesting is the deepest nesting of collections in a document:
	// kyaml's time grows with size times depth.
	MaxNesting = 100
	// MaxAliasNodes is the most nodes a document may expand to through
	// its aliases beyond MaxAliasRatio times the nodes written.
	MaxAliasNodes = 100_000
	// MaxAliasRatio is how many times its written nodes a document may
	// expand to through its aliases, past MaxAliasNodes.
	MaxAliasRatio = 10
)

// Shape is what is measured of one YAML document before it is read.
type Shape struct {
	// Depth is the deepest nesting of collections, DeepLine its line.
	Depth, DeepLine int
	// Nodes are the nodes written, Expanded the nodes once every alias
	// is expanded.
	Nodes, Expanded int
	// Anchored says the document holds an anchor, an alias or a merge key.
	Anchored bool
	// Alias is the alias that expands to the most nodes, AliasSize that
	// many; nil when there is none.
	Alias     *yaml.Node
	AliasSize int
}

// Measure measures a document in time linear in its nodes: an alias
// is counted as the size of its target, memoised, never expanded.
func Measure(doc *yaml.Node) Shape {
	var s Shape
	// sizes holds the size of each node an alias may copy (an anchored
	// one) and of those expandedSize measured: what keeps the count
	// linear. A document without aliases allocates none.
	var sizes map[*yaml.Node]int
	var walk func(n *yaml.Node, depth int) int
	walk = func(n *yaml.Node, depth int) int {
		if n == nil {
			return 0
		}
		if size, ok := sizes[n]; ok {
			return size
		}
		s.Nodes++
		if n.Anchor != "" || n.Tag == "!!merge" {
			s.Anchored = true
		}
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			depth++
			if depth > s.Depth {
				s.Depth, s.DeepLine = depth, n.Line
			}
		}
		size := 1
		if n.Kind == yaml.AliasNode {
			s.Anchored = true
			if sizes == nil {
				sizes = map[*yaml.Node]int{}
			}
			// The alias's target is counted where it is written; the
			// alias adds a copy of it.
			copied := expandedSize(n.Alias, sizes, 0)
			size = addNodes(size, copied)
			if s.Alias == nil || copied > s.AliasSize {
				s.Alias, s.AliasSize = n, copied
			}
		}
		for _, c := range n.Content {
			size = addNodes(size, walk(c, depth))
		}
		if n.Anchor != "" {
			if sizes == nil {
				sizes = map[*yaml.Node]int{}
			}
			sizes[n] = size
		}
		return size
	}
	s.Expanded = walk(doc, -1)
	return s
}

// expandedSize is the size of a node with its aliases expanded, memoised
// in sizes; guard stops a cycle of aliases (which the YAML parser refuses
// anyway).
func expandedSize(n *yaml.Node, sizes map[*yaml.Node]int, guard int) int {
	if n == nil || guard > MaxNesting {
		return 0
	}
	if size, ok := sizes[n]; ok {
		return size
	}
	size := 1
	if n.Kind == yaml.AliasNode {
		size = addNodes(size, expandedSize(n.Alias, sizes, guard+1))
	}
	for _, c := range n.Content {
		size = addNodes(size, expandedSize(c, sizes, guard+1))
	}
	sizes[n] = size
	return size
}

// maxCounted is where node counts stop growing: an alias bomb's count
// grows exponentially with its levels and would overflow.
const maxCounted = 1 << 50

// addNodes adds two node counts, up to maxCounted.
func addNodes(a, b int) int {
	if a > maxCounted-b {
		return maxCounted
	}
	return a + b
}

// Check reports the documents of a file that pass MaxNesting or the
// alias limits: each problem names the file, the line and the limit.
func Check(file string, docs []*yaml.Node) []diag.Problem {
	var ps []diag.Problem
	for _, d := range docs {
		ps = append(ps, Problems(file, Measure(d))...)
	}
	return ps
}

// Decode reads the documents of a YAML text, up to the first that is not
// YAML: what Check is to look at when the text is read with another
// library, which says itself what is malformed.
func Decode(b []byte) []*yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var docs []*yaml.Node
	for {
		n := &yaml.Node{}
		if dec.Decode(n) != nil {
			return docs
		}
		docs = append(docs, n)
	}
}

// Problems are the problems of one document of file, measured as s:
// none when it is within MaxNesting and the alias limits.
func Problems(file string, s Shape) []diag.Problem {
	var ps []diag.Problem
	if s.Depth > MaxNesting {
		ps = append(ps, diag.Problem{
			File:    file,
			Message: fmt.Sprintf("the document nests %d levels deep (at line %d), more than the %d strata reads", s.Depth, s.DeepLine, MaxNesting),
			Fix:     fmt.Sprintf("flatten the document at line %d of %s to at most %d levels", s.DeepLine, file, MaxNesting),
		})
	}
	if s.Expanded > MaxAliasNodes && s.Expanded > MaxAliasRatio*s.Nodes {
		ps = append(ps, diag.Problem{
			File:    file,
			Message: fmt.Sprintf("the alias *%s at line %d copies %d nodes, and the document expands through its aliases to %d nodes from %d written: strata refuses a document that expands to more than %d times its nodes and %d nodes in all: a reader that expands aliases, as kustomize does, copies every one", s.Alias.Value, s.Alias.Line, s.AliasSize, s.Expanded, s.Nodes, MaxAliasRatio, MaxAliasNodes),
			Fix:     fmt.Sprintf("write the values out instead of aliasing them again and again, from line %d of %s", s.Alias.Line, file),
		})
	}
	return ps
}
