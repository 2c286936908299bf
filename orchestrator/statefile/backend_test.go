package statefile

import (
	"testing"

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
