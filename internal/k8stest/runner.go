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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// runnerRole is the manifests' ClusterRole of the runner pods, which the
// tests grant in their namespace so they can never drift from it.
const runnerRole = "flux-apps/strata/runner/clusterrole.yaml"

// RunnerAccount creates, in namespace ns, the runner pods' service account
// (name) and a Role with the rules of the manifests' strata-tf-runner
// ClusterRole, bound to it, as flux-apps/strata/runner does.
func (c *Cluster) RunnerAccount(t testing.TB, ns, name string) {
	t.Helper()
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	file := filepath.Join(filepath.Dir(strings.TrimSpace(string(gomod))), runnerRole)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read %s: %v", file, err)
	}
	var cr rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(b, &cr); err != nil || len(cr.Rules) == 0 {
		t.Fatalf("decode %s: %v (%d rules)", file, err, len(cr.Rules))
	}
	ctx := context.Background()
	cs := c.Client
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
