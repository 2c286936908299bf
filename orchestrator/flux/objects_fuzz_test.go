package flux

import (
	"testing"

	"sigs.k8s.io/yaml"
)

// FuzzDecodeDocuments feeds arbitrary text through the checks every
// repository file goes through (malformed YAML, duplicate keys) and, when
// it is one object, through object decoding. It must never panic, and a
// problem must always name the file.
func FuzzDecodeDocuments(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\ndata:\n  clientId: acme\n",
		"apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: x\nspec:\n  path: ./a\n  vars:\n    - name: a\n      value: 1\n",
		"apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: k\nspec:\n  dependsOn: [{name: a}]\n---\nkind: [unclosed\n",
		"apiVersion: source.toolkit.fluxcd.io/v1beta2\nkind: OCIRepository\nmetadata: {name: o}\nspec: {url: oci://h/r, ref: {semver: '~1'}}\n",
		"apiVersion: infra.contrib.flux.io/v1alpha2\nkind: Terrafrom\nmetadata: {name: t, name: u}\n",
		"---\n---\n", "data: 3", "kind: ConfigMap\ndata: [1, 2]\n", "\t- bad indent", "a: &x {b: 1}\nc: *x\n<<: *x\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		_, ps := decodeYAML("x.yaml", []byte(text))
		for _, p := range ps {
			if p.File != "x.yaml" {
				t.Errorf("decodeYAML(%q) problem names file %q, want x.yaml", text, p.File)
			}
		}
		var obj map[string]any
		if yaml.Unmarshal([]byte(text), &obj) != nil || obj == nil {
			return
		}
		if _, p := decodeObject("x.yaml", obj, nil); p != nil && p.File != "x.yaml" {
			t.Errorf("decodeObject(%q) problem names file %q, want x.yaml", text, p.File)
		}
	})
}
