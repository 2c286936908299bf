package k8stest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// The manifests' ClusterRole of the runner pods, which the tests grant in
// their namespace, and the seed's PriorityClass the pods run with: read
// from the manifests, so the tests can never drift from them.
const (
	runnerRole          = "flux-apps/strata/runner/clusterrole.yaml"
	runnerPriorityClass = "flux-apps/strata/priorityclass.yaml"
)

// RunnerAccount readies namespace ns for runner pods as the manifests do:
// the seed's PriorityClass (cluster-scoped, shared by every test: created
// when absent, never deleted), and the runner pods' service account (name)
// with a Role of the rules of the manifests' strata-tf-runner ClusterRole,
// bound to it, as flux-apps/strata/runner does.
func (c *Cluster) RunnerAccount(t testing.TB, ns, name string) {
	t.Helper()
	var cr rbacv1.ClusterRole
	if readManifest(t, runnerRole, &cr); len(cr.Rules) == 0 {
		t.Fatalf("%s has no rules", runnerRole)
	}
	var pc schedulingv1.PriorityClass
	readManifest(t, runnerPriorityClass, &pc)
	ctx := context.Background()
	cs := c.Client
	if _, err := cs.SchedulingV1().PriorityClasses().Create(ctx, &pc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create PriorityClass %s: %v", pc.Name, err)
	}
	if _, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create service account %s/%s: %v", ns, name, err)
	}
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: cr.Rules}
	if _, err := cs.RbacV1().Roles(ns).Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create role %s/%s: %v", ns, name, err)
	}
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: ns}},
	}
	if _, err := cs.RbacV1().RoleBindings(ns).Create(ctx, rb, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create role binding %s/%s: %v", ns, name, err)
	}
}

// readManifest decodes the manifest file (relative to the module's root)
// into v, strictly.
func readManifest(t testing.TB, file string, v any) {
	t.Helper()
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	path := filepath.Join(filepath.Dir(strings.TrimSpace(string(gomod))), file)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if err := yaml.UnmarshalStrict(b, v); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
}
