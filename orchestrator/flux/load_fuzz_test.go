package flux

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	yaml3 "go.yaml.in/yaml/v3"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// fuzzKustomization is a Flux Kustomization of clusters/dev that builds
// path.
func fuzzKustomization(name, path string) string {
	return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: " + name +
		"\n  namespace: flux-system\nspec:\n  interval: 10m\n  prune: true\n  path: " + path +
		"\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n"
}

// loadFile writes file as a manifest in each place a load reads one (the
// entry directory, a directory Flux's generator lists, one a
// kustomization file lists beside a Terraform object, and that one under
// a Kustomization with a targetNamespace, namePrefix and nameSuffix, and
// one with patches and a Component of patches and commonAnnotations) of a small
// repository, and loads its environment with plain builds on or off (reading ahead with them). It
// returns what the load found, for comparison.
func loadFile(t *testing.T, file []byte, plain bool) loadOutcome {
	t.Helper()
	root := writeDevRepo(t, map[string]string{
		"clusters/dev/gen.yaml":        fuzzKustomization("gen", "./apps/gen"),
		"clusters/dev/kf.yaml":         fuzzKustomization("kf", "./apps/kf"),
		"clusters/dev/ok.yaml":         fuzzKustomization("ok", "./apps/ok"),
		"clusters/dev/ns.yaml":         fuzzKustomization("ns", "./apps/ns") + "  targetNamespace: team\n  namePrefix: p-\n  nameSuffix: -s\n",
		"apps/ns/terraform.yaml":       terraformObject("ns"),
		"apps/ns/kustomization.yaml":   kfileOf("terraform.yaml", "fuzz.yaml"),
		"apps/gen/terraform.yaml":      terraformObject("gen"),
		"apps/kf/terraform.yaml":       terraformObject("kf"),
		"apps/kf/kustomization.yaml":   kfileOf("terraform.yaml", "fuzz.yaml"),
		"apps/ok/terraform.yaml":       terraformObject("ok"),
		"apps/ok/kustomization.yaml":   kfileOf("terraform.yaml"),
		"clusters/dev/pt.yaml":         fuzzKustomization("pt", "./apps/pt") + fuzzPatches,
		"apps/pt/terraform.yaml":       terraformObject("pt"),
		"apps/pt/kustomization.yaml":   kfileOf("terraform.yaml", "fuzz.yaml") + "components:\n- ../comp\n",
		"apps/comp/kustomization.yaml": fuzzComponent,
		"apps/gen/fuzz.yaml":           "",
		"apps/kf/fuzz.yaml":            "",
	})
	for _, name := range []string{"clusters/dev/fuzz.yaml", "apps/gen/fuzz.yaml", "apps/kf/fuzz.yaml", "apps/ns/fuzz.yaml", "apps/pt/fuzz.yaml"} {
		testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), string(file))
	}
	// The plain way reads ahead (readahead.go), krusty's reads every
	// file when asked: a difference is either's.
	plainBuilds, readAheadOn = plain, plain
	defer func() { plainBuilds, readAheadOn = true, true }()
	dir := filepath.Join(root, "clusters", "dev")
	env, err := Load(context.Background(), dir)
	var ps diag.Problems
	if err != nil && !errors.As(err, &ps) {
		return loadOutcome{Err: err.Error()}
	}
	out := loadOutcome{Problems: environment.AllProblems(env, err)}
	for _, s := range env.Stacks {
		out.Stacks = append(out.Stacks, *s)
	}
	return out
}

// fuzzPatches are a Kustomization's spec.patches: a JSON6902 patch of
// every object, and one of every ConfigMap.
const fuzzPatches = "  patches:\n  - target: {}\n    patch: |\n      - op: add\n        path: /metadata/labels\n        value: {tier: fuzz}\n" +
	"  - target:\n      kind: ConfigMap\n    patch: |\n      - op: replace\n        path: /data/extra\n        value: \"1\"\n"

// fuzzComponent is a Component of commonAnnotations and a strategic
// merge patch of every ConfigMap.
const fuzzComponent = "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  team: platform\npatches:\n- target:\n    kind: ConfigMap\n  patch: |\n    apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: any\n    data:\n      fromComponent: \"yes\"\n"

// loadOutcome is what a load found: its problems and warnings, and the
// stacks it read; or the error that kept it from reading any.
type loadOutcome struct {
	Err      string
	Problems diag.Problems
	Stacks   []environment.Stack
}

// checkLoad loads file both ways and fails the test when a way panics
// or the two differ.
func checkLoad(t *testing.T, file []byte) {
	t.Helper()
	krusty := loadFile(t, file, false)
	plain := loadFile(t, file, true)
	if diff := cmp.Diff(krusty, plain, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Load with the file %q: plain builds differ from krusty's (-krusty +plain):\n%s", file, diff)
	}
}

// loadSeeds are documents of every node kind, and shapes near them.
var loadSeeds = []string{
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  k: v\n",
	"- apiVersion: v1\n  kind: ConfigMap\n",
	"hello\n", "!!str 42\n", "null\n", "~\n", "{}\n", "[]\n", "---\n---\n", "",
	"&a {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n",
	"!foo {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: [a]\n",
	"apiVersion: v1\nkind: [a]\nmetadata: {name: x}\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, annotations: [a]}\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, labels: {a: [b]}}\n",
	"apiVersion: v1\nkind: ConfigMapList\nitems: [1, 2]\n",
	"apiVersion: v1\nkind: ConfigMapList\nitems:\n- hello\n",
	"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: in}\n",
	"apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: fuzz, namespace: flux-system}\nspec: {path: ./stacks, sourceRef: {kind: GitRepository, name: flux-system}}\n",
	"apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: k}\nspec: {path: [x]}\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: &l {x: y}\n  annotations:\n    <<: *l\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\r\n",
	"a: 1\na: 2\n", "kind: [unclosed\n", "\t- bad indent\n", "? [a]\n: b\n",
}

// FuzzLoad writes arbitrary bytes as a manifest of an environment and
// loads it with plain builds, reading ahead, and with krusty's, reading
// each file when asked: no panic, and the same problems and stacks both
// ways.
func FuzzLoad(f *testing.F) {
	for _, s := range loadSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		checkLoad(t, file)
	})
}

// FuzzLoadTree is FuzzLoad of YAML node trees: the fuzzer's bytes choose
// each node's kind, tag, style, anchor and content (see treeOf), and the
// documents they make are written as the file.
func FuzzLoadTree(f *testing.F) {
	for _, s := range []string{"\x00", "\x01\x02\x03", "\x02\x05\x00\x06\x00", "\x03\x03\x03\x03\x03\x01", "\x07\x00\x02\x01\x04"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, choices []byte) {
		g := &treeGen{b: choices}
		var docs []byte
		for i := 0; i < 3 && g.more(); i++ {
			b, err := yaml3.Marshal(&yaml3.Node{Kind: yaml3.DocumentNode, Content: []*yaml3.Node{g.node(0)}})
			if err != nil {
				return
			}
			if i > 0 {
				docs = append(docs, "---\n"...)
			}
			docs = append(docs, b...)
		}
		checkLoad(t, docs)
	})
}

// treeGen makes a YAML node tree of a fuzzer's bytes.
type treeGen struct {
	b       []byte
	anchors []string
}

func (g *treeGen) more() bool { return len(g.b) > 0 }

func (g *treeGen) next() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

// treeWords are the keys and values a tree is made of: the fields a load
// reads, and values of every YAML type.
var treeWords = []string{"apiVersion", "kind", "metadata", "name", "namespace", "spec", "data", "items", "labels",
	"annotations", "v1", "ConfigMap", "ConfigMapList", "Terraform", "infra.contrib.fluxcd.io/v1alpha2", "path",
	"./stacks", "sourceRef", "GitRepository", "flux-system", "x", "1", "true", "null", "", "${v}"}

// node makes one node at depth.
func (g *treeGen) node(depth int) *yaml3.Node {
	c := g.next()
	n := &yaml3.Node{}
	switch kind := c % 8; {
	case kind < 3 && depth < 5:
		n.Kind = yaml3.MappingNode
		for i := 0; i < int(g.next()%5); i++ {
			k := &yaml3.Node{Kind: yaml3.ScalarNode, Value: treeWords[int(g.next())%len(treeWords)]}
			n.Content = append(n.Content, k, g.node(depth+1))
		}
	case kind < 5 && depth < 5:
		n.Kind = yaml3.SequenceNode
		for i := 0; i < int(g.next()%4); i++ {
			n.Content = append(n.Content, g.node(depth+1))
		}
	case kind == 5 && len(g.anchors) > 0:
		a := g.anchors[int(g.next())%len(g.anchors)]
		return &yaml3.Node{Kind: yaml3.AliasNode, Value: a, Alias: &yaml3.Node{Kind: yaml3.ScalarNode, Anchor: a}}
	default:
		n.Kind = yaml3.ScalarNode
		n.Value = treeWords[int(g.next())%len(treeWords)]
	}
	switch c >> 3 & 7 {
	case 1:
		n.Style = yaml3.FlowStyle
	case 2:
		n.Tag = "!custom"
	case 3:
		n.Anchor = "a" + string(rune('a'+len(g.anchors)%26))
		g.anchors = append(g.anchors, n.Anchor)
	case 4:
		if n.Kind == yaml3.ScalarNode {
			n.Style = yaml3.DoubleQuotedStyle
		}
	}
	return n
}
