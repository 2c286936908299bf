package change

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/source"
)

// An OCI source is pinned as the repository writes its ref, with no
// registry asked: a new ref is a new version, a new URL or path new code.
func TestPinOCI(t *testing.T) {
	oci := func(edit func(s *environment.Source)) *environment.Stack {
		s := &environment.Stack{Name: "api", Path: "terraform", Version: "0.1.0",
			Source: environment.Source{Kind: environment.SourceOCIRepository, Name: "api", URL: "oci://registry.example/api", Semver: "~> 1.2.0"}}
		if edit != nil {
			edit(&s.Source)
		}
		return s
	}
	tests := []struct {
		name  string
		stack *environment.Stack
		want  source.Artifact
	}{
		{"semver", oci(nil), source.Artifact{Version: "~> 1.2.0", Digest: "OCIRepository/api oci://registry.example/api terraform@~> 1.2.0"}},
		{"tag", oci(func(s *environment.Source) { s.Semver, s.Tag = "", "1.2.3" }), source.Artifact{Version: "1.2.3", Digest: "OCIRepository/api oci://registry.example/api terraform@1.2.3"}},
		{"digest", oci(func(s *environment.Source) { s.Semver, s.Digest = "", "sha256:abc" }), source.Artifact{Version: "0.1.0", Digest: "OCIRepository/api oci://registry.example/api terraform@sha256:abc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pin(context.Background(), &source.Resolver{}, tt.stack)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("pin(%q) (-want +got):\n%s", tt.name, diff)
			}
		})
	}
	// A ref bumped in _versions.yaml is a version change.
	base, head := oci(nil), oci(func(s *environment.Source) { s.Semver = "~> 1.3.0" })
	got, err := compareStack(context.Background(), base, head, &source.Resolver{}, &source.Resolver{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Cause != CauseVersion || got.From != "~> 1.2.0" || got.To != "~> 1.3.0" {
		t.Errorf("compareStack(a semver bump) = %+v, want version from ~> 1.2.0 to ~> 1.3.0", got)
	}
}
