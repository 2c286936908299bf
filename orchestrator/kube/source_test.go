package kube

import "testing"

func TestSourceResource(t *testing.T) {
	for kind, want := range map[string]string{
		"GitRepository": "gitrepositories",
		"OCIRepository": "ocirepositories",
		"Bucket":        "buckets",
	} {
		if got := sourceResource(kind); got != want {
			t.Errorf("sourceResource(%q) = %q, want %q", kind, got, want)
		}
	}
}
