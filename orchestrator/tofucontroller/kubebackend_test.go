package tofucontroller

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKubernetesBackend: a backendConfig without customConfiguration is
// the Tofu Controller's kubernetes backend, in the object's namespace,
// written as it writes it; one that sets none of its fields, disables the
// backend or writes customConfiguration is not.
func TestKubernetesBackend(t *testing.T) {
	tests := []struct {
		name, spec string
		cluster    bool
		want       string
		notes      int
	}{
		{
			name: "secretSuffix, configPath, labels",
			spec: "  backendConfig: {secretSuffix: hello, configPath: /etc/kube/config, labels: {team: a, app: b}}",
			want: "backend \"kubernetes\" {\n  secret_suffix     = \"hello\"\n  in_cluster_config = false\n  config_path       = \"/etc/kube/config\"\n  namespace         = \"flux-system\"\n  labels = {\n    \"app\" = \"b\"\n    \"team\" = \"a\"\n  }\n}",
		},
		{
			name:    "inClusterConfig, the suffix the object's name",
			spec:    "  backendConfig: {inClusterConfig: true}",
			cluster: true,
			want:    "backend \"kubernetes\" {\n  secret_suffix     = \"t\"\n  in_cluster_config = true\n  namespace         = \"flux-system\"\n}",
		},
		{
			name:  "in a repository, without a way to the cluster: a note",
			spec:  "  backendConfig: {secretSuffix: s}",
			want:  "backend \"kubernetes\" {\n  secret_suffix     = \"s\"\n  in_cluster_config = false\n  namespace         = \"flux-system\"\n}",
			notes: 1,
		},
		{name: "customConfiguration wins", spec: "  backendConfig: {secretSuffix: s, customConfiguration: 'backend \"local\" {}'}"},
		{name: "disable wins", spec: "  backendConfig: {secretSuffix: s, disable: true}"},
		{name: "none of its fields", spec: "  backendConfig: {}"},
		{name: "no backendConfig", spec: "  path: ./x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			r.cluster = tt.cluster
			if diff := cmp.Diff(tt.want, b.kubernetesBackend()); diff != "" {
				t.Errorf("kubernetesBackend(%s) diff (-want +got):\n%s", tt.spec, diff)
			}
			if len(r.notes) != tt.notes {
				t.Errorf("kubernetesBackend(%s) notes = %q, want %d", tt.spec, r.notes, tt.notes)
			}
		})
	}
}
