package statefile

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseS3Backend(t *testing.T) {
	tests := []struct {
		name, config string
		want         S3Backend
		ok           bool
	}{
		{
			name: "seed",
			config: `backend "s3" {
  region         = "eu-west-1"
  bucket         = "terraform-states"
  key            = "acme/dev/stacks/network.tfstate"
  use_lockfile   = true
  endpoints      = { s3 = "http://127.0.0.1:7070" }
  use_path_style = true
}`,
			want: S3Backend{Bucket: "terraform-states", Key: "acme/dev/stacks/network.tfstate", Region: "eu-west-1", Endpoint: "http://127.0.0.1:7070"},
			ok:   true,
		},
		{
			name:   "older endpoint",
			config: "backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n endpoint = \"http://s3.local\"\n}",
			want:   S3Backend{Bucket: "b", Key: "k", Endpoint: "http://s3.local"},
			ok:     true,
		},
		{name: "other backend", config: "backend \"gcs\" {\n bucket = \"b\"\n prefix = \"p\"\n}"},
		{name: "key not literal", config: "backend \"s3\" {\n bucket = \"b\"\n key = var.key\n}"},
		{name: "workspaces", config: "backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n workspace_key_prefix = \"env\"\n}"},
		{name: "not hcl", config: `backend "s3" {`},
		{name: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseS3Backend(tt.config)
			if ok != tt.ok {
				t.Fatalf("ParseS3Backend(%q) ok = %v, want %v", tt.config, ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseS3Backend(%q) (-want +got):\n%s", tt.config, diff)
			}
		})
	}
}

func FuzzParseS3Backend(f *testing.F) {
	f.Add("backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n endpoints = { s3 = \"http://x\" }\n}")
	f.Add("backend \"s3\" {\n endpoints = [\"x\"]\n bucket = 1\n}")
	f.Fuzz(func(t *testing.T, config string) {
		if b, ok := ParseS3Backend(config); ok && (b.Bucket == "" || b.Key == "") {
			t.Errorf("ParseS3Backend(%q) = %+v, true, want a bucket and a key", config, b)
		}
	})
}

func TestParseKubernetesBackend(t *testing.T) {
	tests := []struct {
		name, config string
		want         KubernetesBackend
		ok           bool
	}{
		{
			name: "the Tofu Controller's",
			config: `backend "kubernetes" {
  secret_suffix     = "helloworld"
  in_cluster_config = false
  config_path       = "/etc/kube/config"
  namespace         = "flux-system"
  labels = {
    "team" = "platform"
  }
}`,
			want: KubernetesBackend{SecretSuffix: "helloworld", Namespace: "flux-system", ConfigPath: "/etc/kube/config"},
			ok:   true,
		},
		{
			name:   "in cluster, default namespace",
			config: "backend \"kubernetes\" {\n secret_suffix = \"s\"\n in_cluster_config = true\n}",
			want:   KubernetesBackend{SecretSuffix: "s", Namespace: "default", InClusterConfig: true},
			ok:     true,
		},
		{name: "suffix not literal", config: "backend \"kubernetes\" {\n secret_suffix = var.s\n}"},
		{name: "other backend", config: "backend \"s3\" {\n bucket = \"b\"\n key = \"k\"\n}"},
		{name: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseKubernetesBackend(tt.config)
			if ok != tt.ok {
				t.Fatalf("ParseKubernetesBackend(%q) ok = %v, want %v", tt.config, ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseKubernetesBackend(%q) mismatch (-want +got):\n%s", tt.config, diff)
			}
		})
	}
}

func TestLeaseLock(t *testing.T) {
	const info = `{"ID": "f2ab685b-f84d-ac0b-a125-378a22877e8d","Operation": "OperationTypeApply", "Info": "", "Who":"tf-lock", "Version": "1.2.7", "Created": "2022-08-17T15:44:07.0Z", "Path": ""}`
	tests := []struct {
		name, holder string
		annotations  map[string]string
		want         Lock
		ok, err      bool
	}{
		{
			name: "held", holder: "f2ab685b-f84d-ac0b-a125-378a22877e8d",
			annotations: map[string]string{LockInfoAnnotation: info},
			want: Lock{ID: "f2ab685b-f84d-ac0b-a125-378a22877e8d", Operation: "OperationTypeApply", Who: "tf-lock", Version: "1.2.7",
				Created: time.Date(2022, 8, 17, 15, 44, 7, 0, time.UTC), Held: true},
			ok: true,
		},
		{name: "released", annotations: map[string]string{}},
		{name: "held without info", holder: "abc", want: Lock{ID: "abc", Held: true}, ok: true},
		{name: "bad info", holder: "abc", annotations: map[string]string{LockInfoAnnotation: "{"}, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := LeaseLock(tt.holder, tt.annotations)
			if (err != nil) != tt.err || ok != tt.ok {
				t.Fatalf("LeaseLock(%q) = %v, %v, want ok %v, error %v", tt.holder, ok, err, tt.ok, tt.err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LeaseLock(%q) mismatch (-want +got):\n%s", tt.holder, diff)
			}
		})
	}
}

func TestKubernetesNames(t *testing.T) {
	if got, want := KubernetesSecretName("", "tf-x"), "tfstate-default-tf-x"; got != want {
		t.Errorf("KubernetesSecretName(%q) = %q, want %q", "", got, want)
	}
	if got, want := KubernetesLeaseName("prod", "tf-x"), "lock-tfstate-prod-tf-x"; got != want {
		t.Errorf("KubernetesLeaseName(%q) = %q, want %q", "prod", got, want)
	}
}
