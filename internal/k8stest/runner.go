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

// The manifests the runner pods need, which the tests apply as they are so
// they can never drift from them: the strata-tf-runner ClusterRole (whose
// rules the tests grant in their namespace) and the seed's PriorityClass
// (cluster-scoped: without it the API server refuses every runner pod, and
// its Job waits, podless, for its deadline).
const (
	runnerRole          = "flux-apps/strata/runner/clusterrole.yaml"
	runnerPriorityClass = "flux-apps/strata/priorityclass.yaml"
)

// RunnerAccount makes namespace ns ready for runner pods, as
// flux-apps/strata does: it creates the runner pods' service account
// (name) and a Role with the rules of the manifests' strata-tf-runner
// ClusterRole, bound to it, and the manifests' PriorityClass unless the
// cluster has it already (it is shared by every test and never deleted).
func (c *Cluster) RunnerAccount(t testing.TB, ns, name string) {
	t.Helper()
	var cr rbacv1.ClusterRole
	manifest(t, runnerRole, &cr)
	if len(cr.Rules) == 0 {
		t.Fatalf("decode %s: no rules", runnerRole)
	}
	c.PriorityClass(t)
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

// PriorityClass creates the manifests' PriorityClass (the seed's
// terraform) unless the cluster has it already: it is shared by every test
// and never deleted.
func (c *Cluster) PriorityClass(t testing.TB) {
	t.Helper()
	var pc schedulingv1.PriorityClass
	manifest(t, runnerPriorityClass, &pc)
	if _, err := c.Client.SchedulingV1().PriorityClasses().Create(context.Background(), &pc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create priority class %s: %v", pc.Name, err)
	}
}

// PriorityClassNamed creates the manifests' PriorityClass under the name
// given, deleted when the test ends: a test's own class, for a test that
// needs it missing at first (cluster-scoped names are shared, so the name
// should carry the test's namespace).
func (c *Cluster) PriorityClassNamed(t testing.TB, name string) {
	t.Helper()
	var pc schedulingv1.PriorityClass
	manifest(t, runnerPriorityClass, &pc)
	pc.ObjectMeta = metav1.ObjectMeta{Name: name, Labels: pc.Labels}
	classes := c.Client.SchedulingV1().PriorityClasses()
	if _, err := classes.Create(context.Background(), &pc, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create priority class %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := classes.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete priority class %s: %v", name, err)
		}
	})
}

// manifest decodes the manifest at rel, a path from the module's root,
// into obj, strictly: a field obj does not know fails the test.
func manifest(t testing.TB, rel string, obj any) {
	t.Helper()
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	file := filepath.Join(filepath.Dir(strings.TrimSpace(string(gomod))), rel)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read %s: %v", file, err)
	}
	if err := yaml.UnmarshalStrict(b, obj); err != nil {
		t.Fatalf("decode %s: %v", file, err)
	}
}
