package reconcile

import "testing"

func TestBackendKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, config, want string
	}{
		{"s3", "backend \"s3\" {\n  bucket = \"tf\"\n  key = \"acme/dev/net.tfstate\"\n  region = \"eu-west-1\"\n  use_lockfile = true\n}\n", "state:s3:bucket=tf,key=acme/dev/net.tfstate"},
		{"s3 in another region is the same object", "backend \"s3\" {\n  region = \"us-east-1\"\n  key = \"acme/dev/net.tfstate\"\n  bucket = \"tf\"\n}\n", "state:s3:bucket=tf,key=acme/dev/net.tfstate"},
		{"local path", "backend \"local\" {\n  path = \"/var/state/net.tfstate\"\n}\n", "state:local:path=/var/state/net.tfstate"},
		{"unknown backend: every literal", "backend \"http\" {\n  address = \"https://state/x\"\n  lock_method = \"PUT\"\n}\n", "state:http:address=https://state/x,lock_method=PUT"},
		{"interpolation is left out", "backend \"s3\" {\n  bucket = \"tf\"\n  key = \"${var.k}\"\n}\n", "state:s3:bucket=tf"},
		{"not HCL", "backend \"s3\" {", "state:config:backend \"s3\" {"},
		{"no backend block", "foo = 1\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backendKey(tt.config); got != tt.want {
				t.Errorf("backendKey(%q) = %q, want %q", tt.config, got, tt.want)
			}
		})
	}
}

func FuzzBackendKey(f *testing.F) {
	f.Add("backend \"s3\" {\n  bucket = \"tf\"\n  key = \"a/b\"\n}\n")
	f.Add("backend \"local\" {\n  path = \"x\"\n}\n")
	f.Add("backend \"s3\" {")
	f.Fuzz(func(t *testing.T, config string) {
		k := backendKey(config)
		if k != "" && len(k) < len("state:") {
			t.Errorf("backendKey(%q) = %q, want \"\" or a state: key", config, k)
		}
	})
}
