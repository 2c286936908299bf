package runner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/source"
)

func TestClassify(t *testing.T) {
	prev := history.Run{
		ToVersion: "0.1.0", Digest: "h1:aaa", Fingerprint: "fp1",
		Inputs:    map[string]string{"region": "r1", "size": "s1"},
		Upstreams: map[string]string{"network": "n1"},
	}
	same := inputs{varHashes: prev.Inputs, upstreamHashes: prev.Upstreams, fingerprint: "fp1"}
	tests := []struct {
		name    string
		hasPrev bool
		art     source.Artifact
		in      inputs
		changed bool
		want    cause
	}{
		{"first run", false, source.Artifact{Version: "0.1.0", Digest: "h1:aaa"}, same, true,
			cause{CauseInstall, "installing the infrastructure at version 0.1.0"}},
		{"new version", true, source.Artifact{Version: "0.2.0", Digest: "h1:bbb"}, same, true,
			cause{CauseUpgrade, "upgrading the infrastructure from version 0.1.0 to 0.2.0"}},
		{"same version new digest", true, source.Artifact{Version: "0.1.0", Digest: "h1:bbb"}, same, true,
			cause{CauseConfig, "the configuration changed at version 0.1.0 (digest h1:bbb, was h1:aaa)"}},
		{"variable changed", true, source.Artifact{Version: "0.1.0", Digest: "h1:aaa"},
			inputs{varHashes: map[string]string{"region": "r2", "size": "s1"}, upstreamHashes: prev.Upstreams, fingerprint: "fp2"}, true,
			cause{CauseVariables, "variables changed: region"}},
		{"variable removed and added", true, source.Artifact{Version: "0.1.0", Digest: "h1:aaa"},
			inputs{varHashes: map[string]string{"region": "r1", "zone": "z"}, upstreamHashes: prev.Upstreams, fingerprint: "fp2"}, true,
			cause{CauseVariables, "variables changed: size, zone"}},
		{"upstream changed", true, source.Artifact{Version: "0.1.0", Digest: "h1:aaa"},
			inputs{varHashes: prev.Inputs, upstreamHashes: map[string]string{"network": "n2"}, fingerprint: "fp2"}, false,
			cause{CauseUpstream, "upstream contracts changed: network"}},
		{"spec changed", true, source.Artifact{Version: "0.1.0", Digest: "h1:aaa"},
			inputs{varHashes: prev.Inputs, upstreamHashes: prev.Upstreams, fingerprint: "fp3"}, true,
			cause{CauseConfig, "the stack's spec changed (its backend, or the contracts it publishes or reads)"}},
		{"drift", true, source.Artifact{Version: "0.1.0", Digest: "h1:aaa"}, same, true,
			cause{CauseDrift, "drift: nothing of ours changed, yet the infrastructure differs from its configuration"}},
		{"nothing", true, source.Artifact{Version: "0.1.0", Digest: "h1:aaa"}, same, false, cause{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(prev, tt.hasPrev, Request{Artifact: tt.art}, tt.in, tt.changed)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(cause{})); diff != "" {
				t.Errorf("classify(%q) diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestClassifySpecFields: a Terraform field that changes how tofu runs the
// stack re-plans it (its fingerprint changes), and the cause names the
// field; a destroy plan says so.
func TestClassifySpecFields(t *testing.T) {
	art := source.Artifact{Version: "0.1.0", Digest: "h1:aaa"}
	mustSpec := func(run environment.Run) map[string]string {
		t.Helper()
		fields, err := specFields(run)
		if err != nil {
			t.Fatal(err)
		}
		in := inputs{specFields: fields}
		return in.under(keyed([]byte("a test key of thirty-two bytes!!"))).spec
	}
	before := environment.Run{Targets: []string{"terraform_data.a"}, Parallelism: 2,
		Files: []environment.File{{Location: environment.FileHome, Path: ".x", Content: []byte("one")}}}
	prev := history.Run{ToVersion: "0.1.0", Digest: "h1:aaa", Fingerprint: "fp1", Spec: mustSpec(before)}
	tests := []struct {
		name    string
		run     environment.Run
		changed bool
		want    cause
	}{
		{"nothing", before, false, cause{}},
		{"targets changed", environment.Run{Targets: []string{"terraform_data.b"}, Parallelism: 2, Files: before.Files}, true,
			cause{CauseConfig, "the stack's spec changed: spec.targets"}},
		{"parallelism unset, workspace set", environment.Run{Targets: before.Targets, Workspace: "blue", Files: before.Files}, true,
			cause{CauseConfig, "the stack's spec changed: spec.parallelism, spec.workspace"}},
		{"file content changed", environment.Run{Targets: before.Targets, Parallelism: 2,
			Files: []environment.File{{Location: environment.FileHome, Path: ".x", Content: []byte("two")}}}, false,
			cause{CauseConfig, "the stack's spec changed: spec.fileMappings"}},
		{"force, planOnly, refreshBeforeApply set", environment.Run{Targets: before.Targets, Parallelism: 2, Files: before.Files,
			Force: true, PlanOnly: true, RefreshBeforeApply: true}, false,
			cause{CauseConfig, "the stack's spec changed: spec.force, spec.planOnly, spec.refreshBeforeApply"}},
		{"destroy", environment.Run{Targets: before.Targets, Parallelism: 2, Files: before.Files, Destroy: true}, true,
			cause{CauseDestroy, "destroying the infrastructure: spec.destroy of Terraform/app (app.yaml) is true"}},
		{"destroy, nothing left", environment.Run{Targets: before.Targets, Parallelism: 2, Files: before.Files, Destroy: true}, false,
			cause{CauseConfig, "the stack's spec changed: spec.destroy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := mustSpec(tt.run)
			in := inputs{fingerprint: "fp1", specHashes: spec}
			if !cmp.Equal(spec, prev.Spec) {
				in.fingerprint = "fp2"
			}
			req := Request{Artifact: art, Stack: &environment.Stack{Name: "app", File: "app.yaml", Run: tt.run}}
			got := classify(prev, true, req, in, tt.changed)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(cause{})); diff != "" {
				t.Errorf("classify(%q) diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
