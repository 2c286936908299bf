//go:build k8s

package kuberecords_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/recordstest"
)

// The objects of acme/dev's records as strata wrote them before the
// records engine: the names, labels, annotations and data keys an
// existing cluster keeps.
const (
	networkHash = "6eb3d11367245e45" // acme/dev/network
	clusterHash = "28d525b064c0600a" // acme/dev/cluster
	devHash     = "e4caccea9586cf89" // acme/dev
	heldPlan    = "strata-" + networkHash + "-plan-0123456789ab"
)

func oldRun(stackHash, stack, n, run string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: "strata-run-" + stackHash + "-" + n,
			Labels: map[string]string{
				"app.kubernetes.io/managed-by": "strata", "strata.dev/record": "run",
				"strata.dev/env-hash": devHash, "strata.dev/stack-hash": stackHash,
				"strata.dev/client": "acme", "strata.dev/environment": "dev", "strata.dev/stack": stack, "strata.dev/run": n,
			},
			Annotations: map[string]string{"strata.dev/client": "acme", "strata.dev/environment": "dev", "strata.dev/stack": stack, "strata.dev/writer": "controller-0"},
		},
		Data: map[string]string{"run.json": run},
	}
}

func oldSecrets(t *testing.T) []*corev1.Secret {
	payload, err := os.ReadFile("testdata/payload.tar.gz")
	if err != nil {
		t.Fatal(err)
	}
	labels := func(record string) map[string]string {
		return map[string]string{
			"app.kubernetes.io/managed-by": "strata", "strata.dev/record": record,
			"strata.dev/env-hash": devHash, "strata.dev/stack-hash": networkHash,
			"strata.dev/client": "acme", "strata.dev/environment": "dev", "strata.dev/stack": "network",
			"strata.dev/plan-id": "plan-0123456789ab",
		}
	}
	ann := map[string]string{"strata.dev/client": "acme", "strata.dev/environment": "dev", "strata.dev/stack": "network"}
	part := labels("held-plan-part")
	part["strata.dev/part-of"] = "1341592513978b13"
	return []*corev1.Secret{
		{
			ObjectMeta: metav1.ObjectMeta{Name: heldPlan + "-part-0", Labels: part, Annotations: ann},
			Type:       corev1.SecretTypeOpaque,
			Data:       map[string][]byte{"part": payload},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Name: heldPlan, Labels: labels("held-plan"), Annotations: ann},
			Type:       corev1.SecretTypeOpaque,
			Data: map[string][]byte{
				"held.json":     []byte(`{"client":"acme","environment":"dev","stack":"network","planId":"plan-0123456789ab","cause":"upgrade","reason":"deny_delete","heldAt":"2026-11-30T08:00:00Z"}`),
				"approval.json": []byte(`{"client":"acme","environment":"dev","stack":"network","planId":"plan-0123456789ab","by":"ana","reason":"planned","approvedAt":"2026-11-30T09:00:00Z"}`),
				"payload.json":  []byte(`{"parts":1,"sha256":"267dde3b09e87ddeefaa44a7e01c80a96565907efec63951574c2398e45e1f94"}`),
			},
		},
	}
}

// TestLayoutInCluster reads a namespace as strata wrote it before the
// records engine, goes on writing it, and finds the new objects named,
// labelled and annotated as that layout has them.
func TestLayoutInCluster(t *testing.T) {
	ctx := context.Background()
	c := k8stest.Get(t)
	ns := c.Namespace(t, "layout")
	cms := c.Client.CoreV1().ConfigMaps(ns)
	for _, cm := range []*corev1.ConfigMap{
		oldRun(networkHash, "network", "1", `{"number":1,"client":"acme","env":"dev","stack":"network","operation":"apply","cause":"install","toVersion":"1.0.0","summary":{"add":3,"change":0,"destroy":0},"result":"applied","startedAt":"2026-11-30T08:00:00Z"}`),
		oldRun(clusterHash, "cluster", "2", `{"number":2,"client":"acme","env":"dev","stack":"cluster","operation":"apply","summary":{"add":0,"change":0,"destroy":0},"result":"running","startedAt":"2026-11-30T08:00:00Z"}`),
		{
			ObjectMeta: metav1.ObjectMeta{Name: "strata-claims", Labels: map[string]string{"app.kubernetes.io/managed-by": "strata", "strata.dev/record": "claims"}},
			Data:       map[string]string{"claims.json": `{"state:s3:b,dev/net":"environments/acme/dev"}`},
		},
	} {
		if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create ConfigMap %s = %v", cm.Name, err)
		}
	}
	for _, sec := range oldSecrets(t) {
		if _, err := c.Client.CoreV1().Secrets(ns).Create(ctx, sec, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create Secret %s = %v", sec.Name, err)
		}
	}
	s := open(t, c.Kubeconfig, ns, 0)

	recordstest.OldLayout(t, s, s, []string{"cluster", "network"})

	// The next run of cluster interrupts the one left running, which
	// keeps who began it; the new run is named and labelled as before.
	r, err := s.Begin(ctx, history.Run{Client: "acme", Env: "dev", Stack: "cluster", Operation: history.OperationApply})
	if err != nil || r.Number != 3 {
		t.Fatalf("Begin(cluster) = #%d, %v, want #3", r.Number, err)
	}
	old, err := cms.Get(ctx, "strata-run-"+clusterHash+"-2", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.LastMatching(ctx, "acme", "dev", "cluster", func(r history.Run) bool { return r.Number == 2 }); err != nil || !ok || got.Result != history.ResultInterrupted {
		t.Errorf("run #2 of cluster = %s, %v, %v, want interrupted", got.Result, ok, err)
	}
	if w := old.Annotations["strata.dev/writer"]; w != "controller-0" {
		t.Errorf("writer of run #2 after it was marked interrupted = %q, want controller-0", w)
	}
	cur, err := cms.Get(ctx, "strata-run-"+clusterHash+"-3", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get run #3 of cluster = %v", err)
	}
	want := oldRun(clusterHash, "cluster", "3", "")
	want.Annotations["strata.dev/writer"] = t.Name()
	if !cmp.Equal(cur.Labels, want.Labels) || !cmp.Equal(cur.Annotations, want.Annotations) {
		t.Errorf("run #3 of cluster = labels %v, annotations %v, want %v, %v", cur.Labels, cur.Annotations, want.Labels, want.Annotations)
	}

	// Approved again, the held plan keeps its data keys.
	a := approval.Approval{Client: "acme", Env: "dev", Stack: "network", PlanID: "plan-0123456789ab", By: "bo", ApprovedAt: time.Now().UTC()}
	if err := s.Approve(ctx, a); err != nil {
		t.Fatalf("Approve(plan-0123456789ab) = %v", err)
	}
	sec, err := c.Client.CoreV1().Secrets(ns).Get(ctx, heldPlan, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range sec.Data {
		keys = append(keys, k)
	}
	if want := []string{"approval.json", "held.json", "payload.json"}; !cmp.Equal(keys, want, cmpopts.SortSlices(func(a, b string) bool { return a < b })) {
		t.Errorf("data keys of %s after Approve = %v, want %v", heldPlan, keys, want)
	}
	if got, ok, err := s.Approved(ctx, "acme", "dev", "network", "plan-0123456789ab"); err != nil || !ok || got.By != "bo" {
		t.Errorf("Approved() after approving again = %+v, %v, %v, want bo's", got, ok, err)
	}
}
