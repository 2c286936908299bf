package flux

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// FuzzReadShaped feeds arbitrary YAML through the limits and the reading
// of wide mappings past kustomize, with mappings of more than two keys
// counted as wide. It must never panic; a file it rewrites must parse
// again, and once its placeholders are put back, decode to the very
// values of the file as written.
func FuzzReadShaped(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: 1\n  b: \"2\"\n  c: |\n    x\n  d: ~\n",
		"kind: X\nspec:\n  - {a: 1, b: 2, c: [3, {d: 4, e: 5, f: 6}]}\n---\nkind: Y\ndata: {p: q, r: s, t: u}\n",
		"a: &x {b: 1, c: 2, d: 3}\ne: *x\nf:\n  <<: *x\n  g: h\n  i: j\n",
		"metadata:\n  annotations: {a: b, c: d, e: f}\ndata: {1: a, true: b, null: c}\n",
		"data: {a: 1, a: 2, b: 3}\n", "x: [[[[[[]]]]]]\n", "---\n---\n", "data: !custom {a: 1, b: 2, c: 3}\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		old := elideKeys
		elideKeys = 2
		defer func() { elideKeys = old }()
		docs, ps := decodeYAML("x.yaml", []byte(text))
		if len(ps) > 0 || docs == nil {
			return
		}
		var want []any
		for _, d := range docs {
			var v any
			if d.Decode(&v) != nil {
				return
			}
			want = append(want, v)
		}
		e := newElision()
		out, lps := readShaped("x.yaml", []byte(text), docs, e)
		for _, p := range lps {
			if p.File != "x.yaml" {
				t.Errorf("readShaped(%q) problem names file %q, want x.yaml", text, p.File)
			}
		}
		if len(e.mappings) == 0 {
			return
		}
		again, ps := decodeYAML("x.yaml", out)
		if len(ps) > 0 {
			t.Fatalf("readShaped(%q) wrote %q, which does not parse: %v", text, out, ps)
		}
		var got []any
		for _, d := range again {
			if err := e.restoreNode(d); err != nil {
				t.Fatalf("restore of %q = %v, want nil", out, err)
			}
			v, err := decodeNode(d)
			if err != nil {
				t.Fatalf("decodeNode(%q) = %v", out, err)
			}
			got = append(got, v)
		}
		// readShaped leaves out empty documents, as kustomize does.
		var kept []any
		for i, d := range docs {
			if d.Kind == yaml.DocumentNode && len(d.Content) == 0 {
				continue
			}
			kept = append(kept, want[i])
		}
		if d := cmp.Diff(kept, got); d != "" {
			t.Errorf("readShaped(%q) changed the values (-written +read):\n%s", text, d)
		}
	})
}

// FuzzDecodeNode holds decodeNode to yaml.v3's decoding into an any, for
// the trees decodeYAML reads (by plainyaml or by yaml.v3).
func FuzzDecodeNode(f *testing.F) {
	for _, seed := range []string{
		"a: 1\nb: \"2\"\nc: '3'\nd: ~\ne: true\nf: !!str 4\ng: 2001-12-14\nh: [x, {y: z}]\n",
		"kind: Terraform\nspec:\n  vars:\n  - name: a\n    value: 10m\n",
		"a: &x s\nb: *x\n<<: {c: d}\n", "a: !!binary aGk=\n", "a: |\n  text\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		docs, ps := decodeYAML("x.yaml", []byte(text))
		if len(ps) > 0 {
			return
		}
		for _, d := range docs {
			var want any
			werr := d.Decode(&want)
			got, err := decodeNode(d)
			if (err != nil) != (werr != nil) {
				t.Fatalf("decodeNode(%q) error = %v, want %v", text, err, werr)
			}
			if err != nil {
				continue
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("decodeNode(%q) differs from yaml.v3 (-want +got):\n%s", text, diff)
			}
		}
	})
}
