package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/k8stest"
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

// render builds a Kustomize directory as kustomize-controller does, and
// returns its objects, as maps and as objects.
func render(t testing.TB, dir string) ([]map[string]any, []object) {
	t.Helper()
	var maps []map[string]any
	var objs []object
	for _, u := range k8stest.Kustomize(t, dir) {
		b, err := yaml.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		var o object
		if err := yaml.Unmarshal(b, &o); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		maps, objs = append(maps, u.Object), append(objs, o)
	}
	return maps, objs
}

// overlay is a kustomization that sets the namespace of the directory
// base, with the YAML extra.
func overlay(t testing.TB, base, namespace string, extra string) string {
	t.Helper()
	return k8stest.Overlay(t, base, "namespace: "+namespace+"\n"+extra)
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

// TestManifestsNamespace moves the base to another namespace, as an
// overlay may: the bindings follow strata's service account there.
func TestManifestsNamespace(t *testing.T) {
	for _, ns := range []string{"strata-system", "platform"} {
		t.Run(ns, func(t *testing.T) {
			_, objs := render(t, overlay(t, manifests, ns, ""))
			for _, o := range objs {
				if o.Kind != "ClusterRoleBinding" && o.Kind != "RoleBinding" {
					continue
				}
				if len(o.Subjects) != 1 || o.Subjects[0].Name != "strata-controller" || o.Subjects[0].Namespace != ns {
					t.Errorf("%s %s subjects = %+v, want strata-controller of %s", o.Kind, o.Metadata.Name, o.Subjects, ns)
				}
			}
		})
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

// TestShardManifests renders flux-apps/strata/shard1, the Deployment of a
// second shard: made from the base's Deployment, apart from it (its own
// name and pod selector, so the two never share pods), on the base's
// service account, reconciling the objects labelled shard1.
func TestShardManifests(t *testing.T) {
	maps, objs := render(t, filepath.Join(manifests, "shard1"))
	if len(objs) != 1 || objs[0].Kind != "Deployment" || objs[0].Metadata.Name != "strata-controller-shard1" || objs[0].Metadata.Namespace != "strata-system" {
		t.Fatalf("objects of %s/shard1 = %+v, want Deployment strata-system/strata-controller-shard1", manifests, objs)
	}
	baseMaps, base := render(t, manifests)
	var main object
	var mainMap map[string]any
	for i, o := range base {
		if o.Kind == "Deployment" {
			main, mainMap = o, baseMaps[i]
		}
	}
	shard1 := objs[0]
	s, c := shard1.Spec.Template.Spec, shard1.Spec.Template.Spec.Containers[0]
	if s.ServiceAccountName != main.Spec.Template.Spec.ServiceAccountName || c.Image != main.Spec.Template.Spec.Containers[0].Image {
		t.Errorf("shard1 runs %s as %q, want the base's %s as %q", c.Image, s.ServiceAccountName, main.Spec.Template.Spec.Containers[0].Image, main.Spec.Template.Spec.ServiceAccountName)
	}
	wantArgs := append(slices.Clone(main.Spec.Template.Spec.Containers[0].Args), "--watch-label-selector=sharding.fluxcd.io/key in (shard1)")
	if diff := cmp.Diff(wantArgs, c.Args); diff != "" {
		t.Errorf("shard1's args (-want +got):\n%s", diff)
	}
	selector := func(m map[string]any) string {
		sel, _ := m["spec"].(map[string]any)["selector"].(map[string]any)["matchLabels"].(map[string]any)
		return fmt.Sprint(sel)
	}
	if got, other := selector(maps[0]), selector(mainMap); got == other {
		t.Errorf("shard1's pod selector %s = the base's, want its own: two Deployments must not share pods", got)
	}
}
