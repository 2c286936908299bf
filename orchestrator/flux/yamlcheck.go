package flux

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/strata-iac/strata/internal/plainyaml"
	"github.com/strata-iac/strata/orchestrator/diag"
)

// yamlLine matches the line number in the YAML parser's messages.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// decodeYAML checks every document of a YAML file the way a strict
// Kubernetes decoder would: malformed YAML and a key given twice in one
// mapping are problems of the file, with their line. (Kustomize itself
// keeps the last of two equal keys without a word.) It returns the
// documents too, when the file is well-formed YAML. A plain file (most of
// a fleet's) is read by plainyaml, into the trees yaml.v3 would return.
func decodeYAML(file string, data []byte) ([]*yaml.Node, []diag.Problem) {
	var ps []diag.Problem
	if docs, ok := plainyaml.Parse(data); ok {
		for _, d := range docs {
			ps = append(ps, duplicateKeys(file, d)...)
		}
		return docs, ps
	}
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		n := &yaml.Node{}
		err := dec.Decode(n)
		if errors.Is(err, io.EOF) {
			return docs, ps
		}
		if err != nil {
			msg := err.Error()
			if m := yamlLine.FindStringSubmatch(msg); m != nil {
				line, _ := strconv.Atoi(m[1])
				return nil, append(ps, diag.Problem{
					File:    file,
					Message: fmt.Sprintf("malformed YAML at line %d: %s", line, m[2]),
					Fix:     fmt.Sprintf("fix the YAML syntax at line %d of %s", line, file),
				})
			}
			return nil, append(ps, diag.Problem{
				File:    file,
				Message: "malformed YAML: " + msg,
				Fix:     fmt.Sprintf("fix the YAML syntax of %s", file),
			})
		}
		ps = append(ps, duplicateKeys(file, n)...)
		docs = append(docs, n)
	}
}

// duplicateKeys reports every key given twice in a mapping of the tree.
func duplicateKeys(file string, n *yaml.Node) []diag.Problem {
	var ps []diag.Problem
	if n.Kind == yaml.MappingNode {
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				continue
			}
			if first, ok := seen[k.Value]; ok {
				ps = append(ps, diag.Problem{
					File:    file,
					Message: fmt.Sprintf("key %q is given twice in one mapping, at line %d and at line %d", k.Value, first, k.Line),
					Fix:     fmt.Sprintf("keep one %q key at line %d or %d of %s: Kubernetes refuses a duplicate key, and kustomize would keep only the last", k.Value, first, k.Line, file),
				})
				continue
			}
			seen[k.Value] = k.Line
		}
	}
	for _, c := range n.Content {
		ps = append(ps, duplicateKeys(file, c)...)
	}
	return ps
}

// notObject returns the problem of the first document of a manifest file
// that kustomize cannot read as an object: one whose top node is a
// sequence or a scalar, not a mapping. kustomize skips an empty document
// (null, {} or []) as it skips a blank one, and says "missing Resource
// metadata" of any other, without naming the document; nil when every
// document is a mapping or empty.
func notObject(file string, docs []*yaml.Node) *diag.Problem {
	for _, d := range docs {
		n := d
		if n.Kind == yaml.DocumentNode {
			if len(n.Content) == 0 {
				continue
			}
			n = n.Content[0]
		}
		if n.Kind == yaml.MappingNode || kyaml.IsYNodeNilOrEmpty(n) {
			continue
		}
		what := "a scalar"
		fix := fmt.Sprintf("write the object at line %d of %s as a mapping of apiVersion, kind and metadata, or remove the line", n.Line, file)
		switch n.Kind {
		case yaml.SequenceNode:
			what = "a sequence (a list of items)"
			fix = fmt.Sprintf("write each item at line %d of %s as a YAML document of its own, separated by --- lines, or as a kind: List with the items under items:; a file that is not a manifest (a JSON6902 patch, a list of replacements) belongs under patches or replacements of a kustomization file, not under resources", n.Line, file)
		case yaml.ScalarNode:
			what = fmt.Sprintf("a scalar (%.40q)", n.Value)
		case yaml.AliasNode:
			what = "an alias"
		}
		return &diag.Problem{
			File:    file,
			Message: fmt.Sprintf("the document at line %d is %s, not an object: a manifest document must be a mapping of apiVersion, kind and metadata", n.Line, what),
			Fix:     fix,
		}
	}
	return nil
}
