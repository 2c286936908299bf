package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/environment"
)

func TestBackend(t *testing.T) {
	state := t.TempDir()
	r := New(Config{StateDir: state})
	tests := []struct {
		name  string
		stack environment.Stack
		want  []string
	}{
		{"default local state per client, env and stack", environment.Stack{Name: "net"},
			[]string{`backend "local"`, filepath.Join(state, "state", "acme", "dev", "net.tfstate")}},
		{"custom configuration as written", environment.Stack{Name: "net", BackendConfig: "backend \"s3\" {\n  key = \"acme/dev/stacks/net.tfstate\"\n}"},
			[]string{"terraform {\nbackend \"s3\" {\n  key = \"acme/dev/stacks/net.tfstate\"\n}\n}\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.backend(Request{Client: "acme", Env: "dev", Stack: &tt.stack})
			if err != nil {
				t.Fatalf("backend(%q) = %v", tt.stack.Name, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("backend(%q) = %q, want it to contain %q", tt.stack.Name, got, w)
				}
			}
		})
	}
}

func TestClearAndCopyKeepInstalledProviders(t *testing.T) {
	src, ws := t.TempDir(), t.TempDir()
	for _, f := range []string{"main.tf", "modules/m/main.tf", ".terraform/ignored"} {
		p := filepath.Join(src, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f), 0o644)
	}
	for _, f := range []string{"stale.tf", ".terraform/providers/x", ".terraform.lock.hcl"} {
		p := filepath.Join(ws, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f), 0o644)
	}
	if err := clearWorkspace(ws); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(src, ws, src, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.Walk(ws, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(ws, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(got)
	want := []string{".terraform.lock.hcl", ".terraform/providers/x", "main.tf", "modules/m/main.tf"}
	if !slices.Equal(got, want) {
		t.Errorf("workspace files = %v, want %v", got, want)
	}
}

func TestKubernetesBackend(t *testing.T) {
	tests := []struct {
		name    string
		backend StateBackend
		stack   environment.Stack
		want    string
	}{
		{"the Tofu Controller's default: the object's name, in-cluster",
			StateBackend{Kind: BackendKubernetes, Namespace: "infra"}, environment.Stack{Name: "network"},
			"terraform {\n  backend \"kubernetes\" {\n    secret_suffix = \"network\"\n    namespace     = \"infra\"\n    in_cluster_config = true\n  }\n}\n"},
		{"backendConfig.secretSuffix and a kubeconfig",
			StateBackend{Kind: BackendKubernetes, Namespace: "infra", SecretSuffix: "net-prod", Kubeconfig: "/etc/kube/config"}, environment.Stack{Name: "network"},
			"terraform {\n  backend \"kubernetes\" {\n    secret_suffix = \"net-prod\"\n    namespace     = \"infra\"\n    config_path   = \"/etc/kube/config\"\n  }\n}\n"},
		{"customConfiguration wins",
			StateBackend{Kind: BackendKubernetes, Namespace: "infra"}, environment.Stack{Name: "network", BackendConfig: "backend \"local\" {}"},
			"terraform {\nbackend \"local\" {}\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Config{StateDir: t.TempDir(), Backend: tt.backend})
			got, err := r.backend(Request{Client: "acme", Env: "dev", Stack: &tt.stack})
			if err != nil || got != tt.want {
				t.Errorf("backend(%q) = %q, %v, want %q", tt.stack.Name, got, err, tt.want)
			}
			if r.localState(Request{Stack: &tt.stack}) {
				t.Errorf("localState(%q) = true with the %s backend, want false", tt.stack.Name, tt.backend.Kind)
			}
		})
	}
}
