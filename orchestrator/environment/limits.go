package environment

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// The limits of what the loader reads. Each bounds a cost that grows
// faster than the input: past it, a file is a problem naming the file,
// the limit and the fix, found before kustomize reads it.
const (
	// MaxManifestBytes is the largest manifest file read: the YAML nodes
	// of a file take about ten times its size in memory.
	MaxManifestBytes = 32 << 20
	// MaxMappingKeys is the most keys of one mapping that kustomize is
	// given to read. kustomize's reader (kyaml's de-anchoring, run on every
	// document) takes time that grows with the square of a mapping's keys:
	// 10,000 keys take about a second. A wider mapping is read past
	// kustomize when kustomize does not change it (see elide.go); one it
	// must read is refused.
	MaxMappingKeys = 10_000
	// MaxNesting is the deepest nesting of collections in a manifest.
	// kyaml copies every mapping's whole subtree once per mapping above
	// it, so its time grows with size times depth.
	MaxNesting = 100
	// MaxAliasNodes is the most nodes a document may expand to through
	// its aliases (kustomize expands every alias into a copy) beyond
	// MaxAliasRatio times the nodes written.
	MaxAliasNodes = 100_000
	// MaxBuildObjects is the most objects one kustomize build reads:
	// kustomize checks every object it adds against each one added
	// before, so its time grows with the square of their number (1,000
	// objects take about half a second).
	MaxBuildObjects = 5_000
	// MaxAliasRatio is how many times its written nodes a document may
	// expand to through its aliases, past MaxAliasNodes.
	MaxAliasRatio = 10
	// MaxBuildFiles is the most manifest files one kustomize build reads,
	// empty ones included: kustomize resolves every file's path through
	// its symbolic links, a dozen system calls each, so 100,000 files take
	// about ten seconds before a single object is read.
	MaxBuildFiles = 20_000
)

// docShape is what the loader measures of one YAML document before
// kustomize reads it.
type docShape struct {
	// depth is the deepest nesting of collections, deepLine its line.
	depth, deepLine int
	// nodes are the nodes written, expanded the nodes once every alias
	// is expanded.
	nodes, expanded int
	// anchored says the document holds an anchor, an alias or a merge key.
	anchored bool
	// alias is the alias that expands to the most nodes, aliasSize that
	// many; nil when there is none.
	alias     *yaml.Node
	aliasSize int
}

// measure measures a document.
func measure(doc *yaml.Node) docShape {
	var s docShape
	sizes := map[*yaml.Node]int{}
	var walk func(n *yaml.Node, depth int) int
	walk = func(n *yaml.Node, depth int) int {
		if n == nil {
			return 0
		}
		if size, ok := sizes[n]; ok {
			return size
		}
		s.nodes++
		if n.Anchor != "" || n.Tag == "!!merge" {
			s.anchored = true
		}
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			depth++
			if depth > s.depth {
				s.depth, s.deepLine = depth, n.Line
			}
		}
		size := 1
		if n.Kind == yaml.AliasNode {
			s.anchored = true
			// The alias's target is counted where it is written; the
			// alias adds a copy of it.
			copied := expandedSize(n.Alias, sizes, 0)
			size = addNodes(size, copied)
			if s.alias == nil || copied > s.aliasSize {
				s.alias, s.aliasSize = n, copied
			}
		}
		for _, c := range n.Content {
			size = addNodes(size, walk(c, depth))
		}
		sizes[n] = size
		return size
	}
	s.expanded = walk(doc, -1)
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

// checkLimits reports the documents of a file that pass a limit kustomize
// cannot read in bounded time, other than a mapping's width (see elide).
func checkLimits(file string, docs []*yaml.Node) []diag.Problem {
	var ps []diag.Problem
	for _, d := range docs {
		s := measure(d)
		if s.depth > MaxNesting {
			ps = append(ps, diag.Problem{
				File:    file,
				Message: fmt.Sprintf("the document nests %d levels deep (at line %d), more than the %d strata reads", s.depth, s.deepLine, MaxNesting),
				Fix:     fmt.Sprintf("flatten the document at line %d of %s to at most %d levels", s.deepLine, file, MaxNesting),
			})
		}
		if s.expanded > MaxAliasNodes && s.expanded > MaxAliasRatio*s.nodes {
			ps = append(ps, diag.Problem{
				File:    file,
				Message: fmt.Sprintf("the alias *%s at line %d copies %d nodes, and the document expands through its aliases to %d nodes from %d written: strata refuses a document that expands to more than %d times its nodes and %d nodes in all (kustomize would copy every one)", s.alias.Value, s.alias.Line, s.aliasSize, s.expanded, s.nodes, MaxAliasRatio, MaxAliasNodes),
				Fix:     fmt.Sprintf("write the values out instead of aliasing them again and again, from line %d of %s", s.alias.Line, file),
			})
		}
	}
	return ps
}

// countProblem is the problem of a file that brings its build past
// MaxBuildObjects objects.
func countProblem(file string, objects int) diag.Problem {
	return diag.Problem{
		File:    file,
		Message: fmt.Sprintf("the kustomize build that reads this file reads %d objects by its end, more than the %d strata lets one build read: kustomize checks every object it adds against each one added before", objects, MaxBuildObjects),
		Fix:     fmt.Sprintf("split the objects of %s and the files listed with it over several Flux Kustomizations", file),
	}
}

// filesProblem is the problem of a directory whose build reads more than
// MaxBuildFiles manifest files; how says how the build comes to read them.
func filesProblem(dir, how string) diag.Problem {
	return diag.Problem{
		File:    dir,
		Message: fmt.Sprintf("the kustomize build of %s reads more than %d manifest files (%s), more than strata lets one build read", dir, MaxBuildFiles, how),
		Fix:     fmt.Sprintf("keep only manifests under %s, or split them over several Flux Kustomizations of at most %d files each", dir, MaxBuildFiles),
	}
}

// irregularProblem is the problem of a manifest path that does not lead
// to a regular file: a named pipe, a device, a symbolic link loop. Reading
// one could block the load for ever.
func irregularProblem(file string, err error) diag.Problem {
	why := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		why = pe.Err.Error()
	}
	return diag.Problem{
		File:    file,
		Message: fmt.Sprintf("the manifest cannot be read: %s", why),
		Fix:     fmt.Sprintf("replace %s with a regular file, or remove it (Flux reads every .yaml and .yml file of a directory without a kustomization file)", file),
	}
}

// sizeProblem is the problem of a manifest file larger than
// MaxManifestBytes.
func sizeProblem(file string, size int64) diag.Problem {
	return diag.Problem{
		File:    file,
		Message: fmt.Sprintf("the file holds %s, more than the %s strata reads of one manifest file", byteSize(size), byteSize(MaxManifestBytes)),
		Fix:     fmt.Sprintf("split %s into files of at most %s", file, byteSize(MaxManifestBytes)),
	}
}

// byteSize writes a size in bytes for a person.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
