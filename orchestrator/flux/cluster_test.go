package flux

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// readObjects reads a fixture: one JSON object per file, as the API server
// serves them.
func readObjects(t *testing.T, dir string) []map[string]any {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var o map[string]any
		if err := json.Unmarshal(b, &o); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		objs = append(objs, o)
	}
	return objs
}

func TestLoadNamespace(t *testing.T) {
	objs := readObjects(t, "testdata/cluster/demo")
	env, err := LoadNamespace(context.Background(), Namespace{Name: "demo", Root: t.TempDir(), Objects: objs})
	if err != nil {
		t.Fatalf("LoadNamespace(demo) = %v, want no error", err)
	}
	if env.Client != "acme" || env.Name != "dev" || env.Class != environment.ClassNonProd {
		t.Errorf("LoadNamespace(demo) identity = %s/%s (%s), want acme/dev (non-prod) from the init ConfigMap", env.Client, env.Name, env.Class)
	}
	want := []*environment.Stack{
		{
			Name: "app", Namespace: "demo", File: "demo/Terraform/app", Kustomization: "demo", KustomizationFile: "demo", Layer: environment.LayerServices,
			Source:    environment.Source{Kind: environment.SourceGitRepository, Name: "platform", Artifact: &environment.Artifact{}},
			Path:      "stacks/app",
			Vars:      map[string]any{"size": "small", "replicas": float64(2)},
			DependsOn: []string{"network"},
			Consumes:  []environment.Input{{Contract: "network", As: "network"}},
			Interval:  5 * time.Minute,
		},
		{
			Name: "network", Namespace: "demo", File: "demo/Terraform/network", Kustomization: "demo", KustomizationFile: "demo", Layer: environment.LayerNetwork,
			Source: environment.Source{Kind: environment.SourceOCIRepository, Name: "network", URL: "oci://127.0.0.1:5000/iac/network", Semver: "~0.1.0",
				Artifact: &environment.Artifact{URL: "http://127.0.0.1:9090/ocirepository/demo/network/sha256:abc.tar.gz", Digest: "sha256:" + strings.Repeat("a", 64), Revision: "0.1.0@sha256:" + strings.Repeat("b", 64)}},
			Path:        "terraform",
			Vars:        map[string]any{"cidr": "10.0.0.0/16"},
			Produces:    "network",
			ApprovePlan: "auto",
			Interval:    5 * time.Minute,
		},
	}
	if diff := cmp.Diff(want, env.Stacks, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("LoadNamespace(demo) stacks mismatch (-want +got):\n%s", diff)
	}
}

func TestLoadNamespaceProblems(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(tf map[string]any)
		wantMsg string
	}{
		{"missing source", func(tf map[string]any) {
			spec(tf)["sourceRef"] = map[string]any{"kind": "GitRepository", "name": "nope"}
		}, "spec.sourceRef names GitRepository/nope, which does not exist"},
		{"source in another namespace", func(tf map[string]any) {
			spec(tf)["sourceRef"] = map[string]any{"kind": "GitRepository", "name": "platform", "namespace": "other"}
		}, "cannot access GitRepository/other/platform, cross-namespace references have been disabled"},
		{"dependency in another namespace", func(tf map[string]any) {
			spec(tf)["dependsOn"] = []any{map[string]any{"name": "network", "namespace": "other"}}
		}, "cannot access other/network, cross-namespace references have been disabled"},
		{"not a Flux source", func(tf map[string]any) { spec(tf)["sourceRef"] = map[string]any{"kind": "HelmRepository", "name": "x"} }, "which is not a Flux source"},
		{"field strata refuses", func(tf map[string]any) { spec(tf)["cloud"] = map[string]any{"organization": "o"} }, "spec.cloud"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := readObjects(t, "testdata/cluster/demo")
			for _, o := range objs {
				if o["kind"] == "Terraform" && metaOf(o).Metadata.Name == "app" {
					tt.edit(o)
				}
			}
			_, err := LoadNamespace(context.Background(), Namespace{Name: "demo", Root: t.TempDir(), Objects: objs})
			var ps diag.Problems
			if !errors.As(err, &ps) {
				t.Fatalf("LoadNamespace(demo) = %v, want problems", err)
			}
			found := false
			for _, p := range ps {
				found = found || (strings.Contains(p.Message, tt.wantMsg) && p.File == "demo/Terraform/app")
			}
			if !found {
				t.Errorf("LoadNamespace(demo) = %v, want a problem of demo/Terraform/app containing %q", err, tt.wantMsg)
			}
		})
	}
}

func spec(o map[string]any) map[string]any { return o["spec"].(map[string]any) }

// TestLoadNamespaceIsolate: with Isolate, a problem of one Terraform
// object holds back that object and what depends on it, and is not the
// load's error, as the Tofu Controller fails one object alone: app
// depends on network, so a broken network holds app back too.
func TestLoadNamespaceIsolate(t *testing.T) {
	tests := []struct {
		name, broken string
		edit         func(tf map[string]any)
		wantStacks   []string
		// wantBlocked are the blocked stacks, each with what its reason
		// holds.
		wantBlocked map[string]string
		wantCode    string
	}{
		{"refused field", "app", func(tf map[string]any) { spec(tf)["cloud"] = map[string]any{"organization": "o"} },
			[]string{"network"}, map[string]string{"app": "spec.cloud"}, ""},
		{"missing source", "app", func(tf map[string]any) {
			spec(tf)["sourceRef"] = map[string]any{"kind": "GitRepository", "name": "nope"}
		}, []string{"network"}, map[string]string{"app": "GitRepository/nope"}, diag.CodeSourceNotFound},
		{"source in another namespace", "app", func(tf map[string]any) {
			spec(tf)["sourceRef"] = map[string]any{"kind": "GitRepository", "name": "platform", "namespace": "other"}
		}, []string{"network"}, map[string]string{"app": "cross-namespace references have been disabled"}, diag.CodeAccessDenied},
		{"dependency broken", "network", func(tf map[string]any) {
			spec(tf)["sourceRef"] = map[string]any{"kind": "OCIRepository", "name": "nope"}
		}, nil, map[string]string{"network": "OCIRepository/nope", "app": "it depends on stack network, which is blocked"}, diag.CodeSourceNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := readObjects(t, "testdata/cluster/demo")
			for _, o := range objs {
				if o["kind"] == "Terraform" && metaOf(o).Metadata.Name == tt.broken {
					tt.edit(o)
				}
			}
			env, err := LoadNamespace(context.Background(), Namespace{Name: "demo", Root: t.TempDir(), Objects: objs, Isolate: true})
			if err != nil {
				t.Fatalf("LoadNamespace(demo) = %v, want no error: the problem is %s's alone", err, tt.broken)
			}
			var stacks []string
			for _, s := range env.Stacks {
				stacks = append(stacks, s.Name)
			}
			if diff := cmp.Diff(tt.wantStacks, stacks, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("LoadNamespace(demo) stacks mismatch (-want +got):\n%s", diff)
			}
			got := map[string]string{}
			for _, b := range env.Blocked {
				got[b.Stack] = b.Reason
				if b.Stack == tt.broken && tt.wantCode != "" && (len(b.Problems) == 0 || b.Problems[0].Code != tt.wantCode) {
					t.Errorf("LoadNamespace(demo) blocked %s problems = %v, want code %s", b.Stack, b.Problems, tt.wantCode)
				}
			}
			if len(got) != len(tt.wantBlocked) {
				t.Errorf("LoadNamespace(demo) blocked = %v, want %v", got, tt.wantBlocked)
			}
			for s, want := range tt.wantBlocked {
				if !strings.Contains(got[s], want) {
					t.Errorf("LoadNamespace(demo) blocked %s reason = %q, want it to contain %q", s, got[s], want)
				}
			}
		})
	}
}

// TestLoadNamespaceCrossNamespaceSource reads a sourceRef into another
// namespace as the Tofu Controller does: refused (AccessDenied) unless
// cross-namespace references are allowed, then the artifact of that
// namespace's source.
func TestLoadNamespaceCrossNamespaceSource(t *testing.T) {
	shared := map[string]any{
		"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "GitRepository",
		"metadata": map[string]any{"name": "platform", "namespace": "shared"},
		"status": map[string]any{"artifact": map[string]any{
			"url": "http://127.0.0.1:9090/gitrepository/shared/platform/abc.tar.gz", "digest": "sha256:" + strings.Repeat("c", 64), "revision": "main@sha1:abc",
		}},
	}
	tests := []struct {
		name     string
		allow    bool
		sources  []map[string]any
		wantArt  *environment.Artifact
		wantMsg  string
		wantCode string
	}{
		{name: "refused by default", sources: []map[string]any{shared},
			wantMsg: "cannot access GitRepository/shared/platform, cross-namespace references have been disabled", wantCode: diag.CodeAccessDenied},
		{name: "allowed", allow: true, sources: []map[string]any{shared},
			wantArt: &environment.Artifact{URL: "http://127.0.0.1:9090/gitrepository/shared/platform/abc.tar.gz", Digest: "sha256:" + strings.Repeat("c", 64), Revision: "main@sha1:abc"}},
		{name: "allowed, but not there", allow: true,
			wantMsg: "spec.sourceRef names GitRepository/platform, which does not exist in namespace shared", wantCode: diag.CodeSourceNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := readObjects(t, "testdata/cluster/demo")
			for _, o := range objs {
				if o["kind"] == "Terraform" && metaOf(o).Metadata.Name == "app" {
					spec(o)["sourceRef"] = map[string]any{"kind": "GitRepository", "name": "platform", "namespace": "shared"}
				}
			}
			env, err := LoadNamespace(context.Background(), Namespace{Name: "demo", Root: t.TempDir(), Objects: objs, CrossNamespaceRefs: tt.allow, Sources: tt.sources})
			if tt.wantArt != nil {
				if err != nil {
					t.Fatalf("LoadNamespace(demo) = %v, want no error", err)
				}
				if diff := cmp.Diff(tt.wantArt, env.Stack("app").Source.Artifact); diff != "" {
					t.Errorf("LoadNamespace(demo) app's artifact mismatch (-want +got):\n%s", diff)
				}
				return
			}
			var ps diag.Problems
			if !errors.As(err, &ps) {
				t.Fatalf("LoadNamespace(demo) = %v, want problems", err)
			}
			var got []diag.Problem
			for _, p := range ps {
				if p.File == "demo/Terraform/app" && strings.Contains(p.Message, "spec.sourceRef") || strings.Contains(p.Message, "cross-namespace") {
					got = append(got, p)
				}
			}
			if len(got) != 1 || got[0].Message != tt.wantMsg || got[0].Code != tt.wantCode {
				t.Errorf("LoadNamespace(demo) problems of app's sourceRef = %+v, want one %q (code %q)", got, tt.wantMsg, tt.wantCode)
			}
		})
	}
}

// TestLoadNamespaceOutOfShard says, of a reference to an object that
// exists but another shard reconciles, which shard it is in and how to
// bring the two together, where it would otherwise say it does not exist.
func TestLoadNamespaceOutOfShard(t *testing.T) {
	const selector = "!sharding.fluxcd.io/key"
	tests := []struct {
		name       string
		drop       string // the kind/name of the object another shard has
		outOfShard map[string]string
		wantMsg    string
		wantCode   string
	}{
		{name: "dependsOn", drop: "Terraform/network", outOfShard: map[string]string{"Terraform/network": "sharding.fluxcd.io/key=shard1"},
			wantMsg: `spec.dependsOn names Terraform "network", which is another shard's (sharding.fluxcd.io/key=shard1): this controller reconciles the objects that match --watch-label-selector !sharding.fluxcd.io/key`},
		{name: "sourceRef", drop: "GitRepository/platform", outOfShard: map[string]string{"GitRepository/platform": "sharding.fluxcd.io/key=shard1"},
			wantMsg:  "spec.sourceRef names GitRepository/platform, which is another shard's (sharding.fluxcd.io/key=shard1): this controller reconciles the objects that match --watch-label-selector !sharding.fluxcd.io/key",
			wantCode: diag.CodeSourceNotFound},
		{name: "sourceRef, not anywhere", drop: "GitRepository/platform",
			wantMsg: "spec.sourceRef names GitRepository/platform, which does not exist", wantCode: diag.CodeSourceNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var objs []map[string]any
			for _, o := range readObjects(t, "testdata/cluster/demo") {
				if m := metaOf(o); m.Kind+"/"+m.Metadata.Name != tt.drop {
					objs = append(objs, o)
				}
			}
			_, err := LoadNamespace(context.Background(), Namespace{Name: "demo", Root: t.TempDir(), Objects: objs, OutOfShard: tt.outOfShard, Shard: selector})
			var ps diag.Problems
			if !errors.As(err, &ps) {
				t.Fatalf("LoadNamespace(demo without %s) = %v, want problems", tt.drop, err)
			}
			var got []diag.Problem
			for _, p := range ps {
				if p.File == "demo/Terraform/app" && p.Message == tt.wantMsg {
					got = append(got, p)
				}
			}
			if len(got) != 1 || got[0].Code != tt.wantCode || got[0].Fix == "" {
				t.Errorf("LoadNamespace(demo without %s) = %v, want one problem of app %q (code %q) with a fix", tt.drop, err, tt.wantMsg, tt.wantCode)
			}
		})
	}
}

// TestLoadNamespaceCrossNamespaceDependsOn: a spec.dependsOn entry of
// another namespace is refused as the Tofu Controller refuses it
// (AccessDenied) unless cross-namespace references are allowed, and then
// is a problem still, never a Terraform object of this namespace that
// happens to have the name.
func TestLoadNamespaceCrossNamespaceDependsOn(t *testing.T) {
	for _, tt := range []struct {
		allow    bool
		wantMsg  string
		wantCode string
	}{
		{false, "cannot access other/network, cross-namespace references have been disabled", diag.CodeAccessDenied},
		{true, "spec.dependsOn names Terraform other/network, of another namespace: strata controller reconciles each namespace as one environment, and cannot wait for an object of another", ""},
	} {
		objs := readObjects(t, "testdata/cluster/demo")
		for _, o := range objs {
			if o["kind"] == "Terraform" && metaOf(o).Metadata.Name == "app" {
				spec(o)["dependsOn"] = []any{map[string]any{"name": "network", "namespace": "other"}}
			}
		}
		_, err := LoadNamespace(context.Background(), Namespace{Name: "demo", Root: t.TempDir(), Objects: objs, CrossNamespaceRefs: tt.allow})
		var ps diag.Problems
		if !errors.As(err, &ps) {
			t.Fatalf("LoadNamespace(demo) with cross-namespace references %v = %v, want problems", tt.allow, err)
		}
		var got []diag.Problem
		for _, p := range ps {
			if p.File == "demo/Terraform/app" && strings.Contains(p.Message, "other/network") {
				got = append(got, p)
			}
		}
		if len(got) != 1 || got[0].Message != tt.wantMsg || got[0].Code != tt.wantCode {
			t.Errorf("LoadNamespace(demo) with cross-namespace references %v: problems of app's dependsOn = %+v, want one %q (code %q)", tt.allow, got, tt.wantMsg, tt.wantCode)
		}
	}
}
