package flux

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// TestNoteMaker: the objects that make a Secret in the cluster, and which
// Secret each makes.
func TestNoteMaker(t *testing.T) {
	tests := []struct {
		name, doc string
		want      map[string]secretMaker
	}{
		{"ExternalSecret, its own name", "apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata: {name: creds, namespace: apps}\nspec: {}",
			map[string]secretMaker{"apps/creds": {ref: "ExternalSecret/apps/creds", file: "f.yaml"}}},
		{"ExternalSecret, its target", "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata: {name: es, namespace: apps}\nspec: {target: {name: creds}}",
			map[string]secretMaker{"apps/creds": {ref: "ExternalSecret/apps/es", file: "f.yaml"}}},
		{"SealedSecret, its template", "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata: {name: ss, namespace: apps}\nspec: {template: {metadata: {name: creds}}}",
			map[string]secretMaker{"apps/creds": {ref: "SealedSecret/apps/ss", file: "f.yaml"}}},
		{"InfisicalSecret, in the namespaces it names", "apiVersion: secrets.infisical.com/v1alpha1\nkind: InfisicalSecret\nmetadata: {name: is, namespace: sec}\nspec: {managedKubeSecretReferences: [{secretName: a, secretNamespace: flux-system}, {secretName: b}]}",
			map[string]secretMaker{"flux-system/a": {ref: "InfisicalSecret/sec/is", file: "f.yaml"}, "sec/b": {ref: "InfisicalSecret/sec/is", file: "f.yaml"}}},
		{"another kind", "apiVersion: v1\nkind: Secret\nmetadata: {name: creds}", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(tt.doc), &obj); err != nil {
				t.Fatal(err)
			}
			l := newLoader(context.Background(), "/repo", "e")
			l.noteMaker("f.yaml", obj)
			if diff := cmp.Diff(tt.want, l.makers, cmp.AllowUnexported(secretMaker{})); diff != "" {
				t.Errorf("noteMaker(%s) makers diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
