package plainyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/strata-iac/strata/internal/yamltest"
)

// decodeAll is what Parse stands in for: yaml.v3's Decoder, one Decode
// call per document, until the end or an error.
func decodeAll(b []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var docs []*yaml.Node
	for {
		n := &yaml.Node{}
		err := dec.Decode(n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, n)
	}
}

// same says how Parse's answer for b differs from yaml.v3's, "" when it
// takes b and returns what yaml.v3 returns, or declines it.
func same(b []byte) string {
	got, ok := Parse(b)
	if !ok {
		return ""
	}
	want, err := decodeAll(b)
	if err != nil {
		return fmt.Sprintf("took YAML that yaml.v3 refuses: %v", err)
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d documents, yaml.v3 %d", len(got), len(want))
	}
	for i := range got {
		if d := yamltest.Diff(fmt.Sprintf("document %d", i), got[i], want[i]); d != "" {
			return d
		}
	}
	return ""
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		// plain is whether Parse takes it.
		plain bool
	}{
		{"kustomization file", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - terraform.yaml\n", true},
		{"sequence at the key's indentation", "resources:\n- a.yaml\n- b.yaml\nkind: Kustomization\n", true},
		{"Flux Kustomization", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: services-0000\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./flux-apps/bench/services-0000\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  dependsOn:\n    - name: cluster-0000\n    - name: cluster-0001\n", true},
		{"compact mappings with nested values", "vars:\n  - name: a\n    valueFrom:\n      kind: Secret\n      names:\n      - x\n  - name: b\n    value: 2\n", true},
		{"typed scalars", "a: 1\nb: true\nc: null\nd: ~\ne: 1.5\nf: 0x1F\ng: 2001-12-14\nh: .inf\ni: 010\nj: -1\n", false},
		{"typed scalars without a sign", "a: 1\nb: true\nc: null\nd: ~\ne: 1.5\nf: 0x1F\ng: 2001-12-14\nh: .inf\ni: 010\nj: yes\n", true},
		{"quoted scalars and keys", "\"a.b/c\": 'x y'\nb: \"1\"\n'c': ''\n", true},
		{"documents", "---\na: 1\n---\nb: 2\n", true},
		{"implicit first document", "a: 1\n---\nb: 2", true},
		{"blank lines", "a: 1\n\n   \nb:\n\n  c: 2\n", true},
		{"substitution variables", "name: ${cluster_name}-vpc\nurl: https://example.com/a,b[0]\n", true},
		{"root sequence", "- a\n- b: c\n  d: e\n", true},
		{"comment", "a: 1 # one\n", false},
		{"anchor and alias", "a: &x 1\nb: *x\n", false},
		{"merge key", "<<: {a: 1}\n", false},
		{"merge key as a value", "a: <<\n", false},
		{"strings that start as numbers do", "a: 10m\nb: 1.2.3\nc: nope\nd: ~x\ne: .git\n", true},
		{"flow mapping", "a: {b: 1}\n", false},
		{"literal block scalar", "a: |\n  text\nb: 1\n", true},
		{"literal block scalar, stripped", "a: |-\n  - op: replace\n    path: /spec/interval\n    value: {tier: bench}\n", true},
		{"literal block scalar in an entry's mapping", "patches:\n  - target:\n      kind: Terraform\n    patch: |\n      - op: add\n        path: /a\n          deeper: x\n  - patch: |-\n      b\n", true},
		{"literal block scalar with a blank line", "a: |\n  one\n\n  two\n", false},
		{"literal block scalar with a blank line first", "a: |\n\n  one\n", false},
		{"literal block scalar with blank lines after", "a: |\n  one\n\nb: 1\n", false},
		{"literal block scalar with blank lines at the end", "a: |\n  one\n  \n", false},
		{"literal block scalar before a document", "a: |\n  one\n---\nb: |-\n  two\n", true},
		{"literal block scalar less indented", "a: |\n    one\n  two\n", false},
		{"empty literal block scalar", "a: |\nb: 1\n", false},
		{"kept literal block scalar", "a: |+\n  text\n", false},
		{"literal block scalar with an indentation indicator", "a: |2\n   text\n", false},
		{"literal block scalar as an entry", "- |\n  text\n", false},
		{"folded block scalar", "a: >\n  text\n", false},
		{"multi-line plain scalar", "a: one\n  two\n", false},
		{"empty value", "a:\nb: 1\n", false},
		{"empty document", "a: 1\n---\n", false},
		{"tab", "a:\t1\n", false},
		{"carriage return", "a: 1\r\n", false},
		{"escape", "a: \"\\n\"\n", false},
		{"tag", "a: !!str 1\n", false},
		{"nested sequence", "- - a\n", false},
		{"entry after a scalar value", "a: 1\n- b\n", false},
		{"wrong indentation", "a:\n    b: 1\n  c: 2\n", false},
		{"mapping in a value", "a: b: c\n", false},
		{"trailing space", "a: 1 \n", false},
		{"non-ASCII", "a: é\n", false},
		{"scalar document", "hello\n", false},
		{"indented root", "  a: 1\n", false},
		{"document end", "a: 1\n...\n", false},
		{"space before a key's colon", "0 : 0\n", false},
		{"key without a space", "a:b\n", false},
		{"quote inside a quoted key", "'a''b': 1\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := Parse([]byte(tt.in))
			if ok != tt.plain {
				t.Errorf("Parse(%q) ok = %v, want %v", tt.in, ok, tt.plain)
			}
			if d := same([]byte(tt.in)); d != "" {
				t.Errorf("Parse(%q): %s", tt.in, d)
			}
		})
	}
}

// TestParseRepository holds Parse to yaml.v3 on every YAML file of this
// repository's test data.
func TestParseRepository(t *testing.T) {
	root := filepath.Join("..", "..")
	took := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bin" || d.Name() == ".strata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if _, ok := Parse(b); ok {
			took++
		}
		if d := same(b); d != "" {
			t.Errorf("Parse(%s): %s", p, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if took < 100 {
		t.Errorf("Parse took %d of the repository's YAML files, want at least 100", took)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a: 1\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: v\n",
		"resources:\n- a.yaml\n- b.yaml\n",
		"- a\n- b: c\n  d:\n  - e\n",
		"---\na: 'x'\n---\nb: \"y\"\n",
		"a:\n  b:\n    c: d\n  e: f\n",
		"k: a:b\nl: a - b\nm: a,b]\n",
		"a: |\n  b\n   c\nd: |-\n  - e: f\n",
		"- a: |\n    x: y\n  b: c\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if d := same(b); d != "" {
			t.Errorf("Parse(%q): %s", b, d)
		}
	})
}

// terraformYAML is a stack's Terraform object as a fleet writes it.
const terraformYAML = `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: services-8006
  namespace: flux-system
  annotations:
    strata.dev/layer: services
spec:
  interval: 10m
  approvePlan: auto
  path: ./flux-apps/bench/stack/terraform
  sourceRef:
    kind: GitRepository
    name: flux-system
  vars:
    - name: name
      value: services-8006
`

// BenchmarkParse reads a Terraform object with Parse, and
// BenchmarkDecoder with yaml.v3's Decoder, which it stands in for.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Parse([]byte(terraformYAML)); !ok {
			b.Fatal("Parse declined a plain Terraform object")
		}
	}
}

func BenchmarkDecoder(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeAll([]byte(terraformYAML)); err != nil {
			b.Fatal(err)
		}
	}
}
