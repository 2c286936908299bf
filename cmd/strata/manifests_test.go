package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// manifests is flux-apps/strata, the Kustomize base a Flux user points a
// Kustomization at.
var manifests = filepath.Join("..", "..", "flux-apps", "strata")

// object is the part of a rendered object the tests read.
type object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Rules []struct {
		APIGroups []string `json:"apiGroups"`
		Resources []string `json:"resources"`
		Verbs     []string `json:"verbs"`
	} `json:"rules"`
	Subjects []struct {
		Kind, Name, Namespace string
	} `json:"subjects"`
	Value int `json:"value"`
	Spec  struct {
		Replicas *int `json:"replicas"`
		Hard     map[string]string
		Template struct {
			Spec struct {
				ServiceAccountName string `json:"serviceAccountName"`
				SecurityContext    struct {
					RunAsNonRoot *bool `json:"runAsNonRoot"`
				} `json:"securityContext"`
				Containers []struct {
					Image           string   `json:"image"`
					Args            []string `json:"args"`
					SecurityContext struct {
						ReadOnlyRootFilesystem *bool `json:"readOnlyRootFilesystem"`
					} `json:"securityContext"`
				} `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

// render builds a Kustomize directory with krusty, as kustomize-controller
// does, and returns its objects, as maps and as objects.
func render(t testing.TB, dir string) ([]map[string]any, []object) {
	t.Helper()
	k := krusty.MakeKustomizer(&krusty.Options{LoadRestrictions: types.LoadRestrictionsNone, PluginConfig: types.DisabledPluginConfig()})
	rm, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	var maps []map[string]any
	var objs []object
	for _, r := range rm.Resources() {
		m, err := r.Map()
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		var o object
		if err := yaml.Unmarshal(b, &o); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		maps, objs = append(maps, m), append(objs, o)
	}
	return maps, objs
}

// overlay writes a kustomization in a temporary directory that sets the
// namespace of the directory base, and returns the overlay.
func overlay(t testing.TB, base, namespace string, extra string) string {
	t.Helper()
	abs, err := filepath.Abs(base)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// kustomize takes no absolute path to a base.
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		t.Fatal(err)
	}
	k := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: " + namespace + "\nresources:\n  - " + rel + "\n" + extra
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestManifests(t *testing.T) {
	_, objs := render(t, manifests)
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o.Kind+"/"+o.Metadata.Name)
	}
	slices.Sort(kinds)
	want := []string{
		"ClusterRole/strata-controller", "ClusterRole/strata-tf-runner", "ClusterRoleBinding/strata-controller",
		"CustomResourceDefinition/terraforms.infra.contrib.fluxcd.io", "Deployment/strata-controller",
		"Namespace/strata-system", "PriorityClass/terraform", "Role/strata-leader-election",
		"RoleBinding/strata-leader-election", "ServiceAccount/strata-controller",
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("objects of %s (-want +got):\n%s", manifests, diff)
	}
	for _, o := range objs {
		clusterScoped := map[string]bool{"ClusterRole": true, "ClusterRoleBinding": true, "CustomResourceDefinition": true, "Namespace": true, "PriorityClass": true}[o.Kind]
		if !clusterScoped && o.Metadata.Namespace != "strata-system" {
			t.Errorf("%s/%s is in namespace %q, want strata-system", o.Kind, o.Metadata.Name, o.Metadata.Namespace)
		}
		// Least privilege: every rule names its resources and verbs.
		for _, r := range o.Rules {
			if slices.Contains(r.Verbs, "*") || slices.Contains(r.Resources, "*") || slices.Contains(r.APIGroups, "*") {
				t.Errorf("%s/%s has a wildcard rule: %+v", o.Kind, o.Metadata.Name, r)
			}
		}
		switch o.Kind {
		case "Deployment":
			s := o.Spec.Template.Spec
			c := s.Containers[0]
			if *o.Spec.Replicas != 2 || s.ServiceAccountName != "strata-controller" || s.SecurityContext.RunAsNonRoot == nil || !*s.SecurityContext.RunAsNonRoot ||
				c.SecurityContext.ReadOnlyRootFilesystem == nil || !*c.SecurityContext.ReadOnlyRootFilesystem {
				t.Errorf("Deployment = %d replicas, service account %q, non-root %v, read-only root %v; want 2, strata-controller, true, true",
					*o.Spec.Replicas, s.ServiceAccountName, s.SecurityContext.RunAsNonRoot, c.SecurityContext.ReadOnlyRootFilesystem)
			}
			if c.Image != "ghcr.io/strata-iac/strata:latest" || len(c.Args) == 0 || c.Args[0] != "controller" {
				t.Errorf("Deployment runs %s %v, want strata's image running strata controller", c.Image, c.Args)
			}
		case "PriorityClass":
			if o.Value != 0 {
				t.Errorf("PriorityClass terraform has value %d, want the seed's 0", o.Value)
			}
		}
	}
}

func TestRunnerManifests(t *testing.T) {
	_, objs := render(t, overlay(t, filepath.Join(manifests, "runner"), "team-a", ""))
	var got []string
	for _, o := range objs {
		got = append(got, o.Kind+"/"+o.Metadata.Namespace+"/"+o.Metadata.Name)
		switch o.Kind {
		case "RoleBinding":
			if len(o.Subjects) != 1 || o.Subjects[0].Name != "tf-runner" || o.Subjects[0].Namespace != "team-a" {
				t.Errorf("RoleBinding subjects = %+v, want tf-runner of team-a", o.Subjects)
			}
		case "ResourceQuota":
			if o.Spec.Hard["pods"] != "10" {
				t.Errorf("ResourceQuota hard = %v, want the seed's 10 pods", o.Spec.Hard)
			}
		}
	}
	slices.Sort(got)
	want := []string{"ResourceQuota/team-a/terraform-runners", "RoleBinding/team-a/strata-tf-runner", "ServiceAccount/team-a/tf-runner"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects of %s/runner (-want +got):\n%s", manifests, strings.TrimSpace(diff))
	}
}
