package environment

import (
	"strings"
	"testing"
)

// FuzzDecodeDocuments feeds arbitrary text through the YAML splitting and
// object decoding every repository file goes through. It must never panic,
// and a problem must always name the file.
func FuzzDecodeDocuments(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\ndata:\n  clientId: acme\n",
		"apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: x\nspec:\n  path: ./a\n  vars:\n    - name: a\n      value: 1\n",
		"apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: k\nspec:\n  dependsOn: [{name: a}]\n---\nkind: [unclosed\n",
		"apiVersion: source.toolkit.fluxcd.io/v1beta2\nkind: OCIRepository\nmetadata: {name: o}\nspec: {url: oci://h/r, ref: {semver: '~1'}}\n",
		"---\n---\n", "data: 3", "kind: ConfigMap\ndata: [1, 2]\n", "\t- bad indent",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, doc := range splitDocuments(text) {
			_, p := decodeDocument("x.yaml", doc)
			if p != nil && p.File != "x.yaml" {
				t.Errorf("decodeDocument(%q) problem names file %q, want x.yaml", doc.Text, p.File)
			}
		}
		if _, p := decodeKustomizeFile("kustomization.yaml", text); p != nil && !strings.HasPrefix(p.File, "kustomization.yaml") {
			t.Errorf("decodeKustomizeFile(%q) problem names file %q", text, p.File)
		}
	})
}
