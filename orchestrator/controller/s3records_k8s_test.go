//go:build k8s

package controller_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/orchestrator/history"
)

// recordsBucket starts versitygw on the loopback, which runner pods on the
// node's network reach too, with a bucket; it points this process's AWS
// settings (and so the controller's, which inherits them) at it, and
// returns the records location and the credentials versitygw accepts.
func recordsBucket(t *testing.T) (loc, access, secret string) {
	t.Helper()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	t.Setenv(stores.EnvEndpoint, endpoint)
	awstest.CreateBucket(t, endpoint, "records")
	return "s3://records/strata/cluster", access, secret
}

// TestRecordsInBucketInCluster runs a real `strata controller --runners
// jobs --records s3://…` whose runner pods get the bucket's credentials
// from a Secret of the namespace (--runner-env-from-secret), never from
// the controller: the runs the runner Jobs apply are numbered and
// recorded in the bucket, where `strata history --records` on another
// state directory reads them, and none in the namespace; the destroy of
// an object deleted with destroyResourcesOnDeletion is held, its plan in
// the bucket, approved with `strata approve --records`, and applied by
// the controller's next runner Job.
func TestRecordsInBucketInCluster(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	loc, access, secret := recordsBucket(t)
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	if _, err := w.c.Client.CoreV1().Secrets(w.ns).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "runner-aws"},
		StringData: map[string]string{"AWS_ACCESS_KEY_ID": access, "AWS_SECRET_ACCESS_KEY": secret},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	jw := watchJobs(t, w)
	w.push("replaceable", "testdata/replaceable", "1.0.0")
	w.apply(disk(t, "doomed", "small", true))
	w.apply(disk(t, "kept", "small", false))
	ctrl := startController(t, w, "--leader-elect-namespace", w.ns, "--leader-elect-name", "strata-bucket",
		"--records", loc, "--runner-env-from-secret", "runner-aws")
	waitFor(t, 2*runBudget, "doomed and kept Ready", func() (bool, error) {
		for _, n := range []string{"doomed", "kept"} {
			if tf := w.get(n); tf == nil || !strings.HasPrefix(ready(tf), "True ") {
				return false, nil
			}
		}
		return true, nil
	})
	if len(jw.Created()) < 2 {
		t.Errorf("runner jobs = %v, want one apply of each object at least", jw.Created())
	}

	// The namespace's environment is client and environment <namespace>:
	// from the command line, a directory named so names it.
	env := filepath.Join(t.TempDir(), "environments", w.ns, w.ns)
	if err := os.MkdirAll(env, 0o755); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	cli := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(w.bin, append(args, "--records", loc, "--state-dir", other)...)
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("strata %s = %v:\n%s%s", strings.Join(args, " "), err, out, stderr)
		}
		return string(out)
	}
	runs := func(stack string) []history.Run {
		t.Helper()
		var rs []history.Run
		out := cli("history", env, stack, "-o", "json")
		if err := json.Unmarshal([]byte(out), &rs); err != nil {
			t.Fatalf("strata history -o json = %v:\n%s", err, out)
		}
		return rs
	}
	for _, stack := range []string{"doomed", "kept"} {
		rs := runs(stack)
		if len(rs) == 0 {
			t.Fatalf("strata history %s --records %s = no runs, want the runner pod's apply", stack, loc)
		}
		first := rs[len(rs)-1]
		if first.Number != 1 || first.Result != history.ResultApplied || first.Client != w.ns || first.Env != w.ns || first.Summary.Add != 1 {
			t.Errorf("first run of %s in the bucket = #%d %s of %s/%s, %+v, want #1 applied of %s/%s, 1 added",
				stack, first.Number, first.Result, first.Client, first.Env, first.Summary, w.ns, w.ns)
		}
		for i, r := range rs {
			if want := len(rs) - i; r.Number != want {
				t.Errorf("runs of %s in the bucket, newest first: #%d at %d, want #%d", stack, r.Number, i, want)
			}
		}
	}
	if out := cli("history", env); !strings.Contains(out, "doomed") || !strings.Contains(out, "kept") {
		t.Errorf("strata history --records %s lacks a stack:\n%s", loc, out)
	}

	w.delete("doomed")
	var id string
	waitFor(t, 2*runBudget, "doomed's destroy plan pending", func() (bool, error) {
		tf := w.get("doomed")
		if tf == nil {
			t.Fatalf("Terraform doomed is gone before its destroy plan was approved")
		}
		id = tf.Status.Plan.Pending
		return strings.HasPrefix(id, "plan-") && tf.Status.Plan.IsDestroyPlan, nil
	})
	if rs := runs("doomed"); rs[0].Result != history.ResultHeld || rs[0].PlanID != id {
		t.Errorf("newest run of doomed in the bucket = #%d %s %s, want held %s", rs[0].Number, rs[0].Result, rs[0].PlanID, id)
	}
	if out := cli("approve", env, "doomed", id, "--reason", "retired", "--by", "ana"); !strings.Contains(out, "approved plan "+id+" of stack doomed by ana") {
		t.Errorf("strata approve --records = %q, want the approval of %s", out, id)
	}
	waitFor(t, 2*runBudget, "doomed gone once its destroy is applied", func() (bool, error) { return w.get("doomed") == nil, nil })
	if got := w.stateResources("tfstate-default-doomed"); got != 0 {
		t.Errorf("resources in doomed's state Secret after its destroy = %d, want 0", got)
	}
	rs := runs("doomed")
	if last := rs[0]; last.Result != history.ResultApplied || last.PlanID != id || last.Summary.Destroy != 1 {
		t.Errorf("newest run of doomed in the bucket = #%d %s %s %+v, want applied %s, 1 destroyed", last.Number, last.Result, last.PlanID, last.Summary, id)
	}
	if !strings.Contains(ctrl.out.String(), "[doomed] apply complete: 0 added, 0 changed, 1 destroyed") {
		t.Errorf("controller log does not show the destroy applied by the runner pod:\n%s", ctrl.out.String())
	}

	// Nothing of the records is in the namespace.
	sel := metav1.ListOptions{LabelSelector: "strata.dev/record"}
	cms, err := w.c.Client.CoreV1().ConfigMaps(w.ns).List(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	secrets, err := w.c.Client.CoreV1().Secrets(w.ns).List(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range cms.Items {
		names = append(names, "ConfigMap/"+o.Name)
	}
	for _, o := range secrets.Items {
		names = append(names, "Secret/"+o.Name)
	}
	if len(names) != 0 {
		t.Errorf("records in namespace %s with --records %s = %v, want none", w.ns, loc, names)
	}
}
