//go:build k8s && kube

package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/statedir"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// reportResults are the results of a reconcile's stacks, and the plan id
// of each held one.
func reportResults(rep *report.Report) (map[string]history.Result, map[string]string) {
	results, ids := map[string]history.Result{}, map[string]string{}
	for _, s := range rep.Stacks {
		results[s.Stack] = s.Result
		if s.PlanID != "" {
			ids[s.Stack] = s.PlanID
		}
	}
	return results, ids
}

// TestClusterRecordsInCluster reconciles an environment whose history and
// held plans are kept in a namespace of the real cluster: a plan is held
// there, approved with `strata approve --kubeconfig --namespace`, and the
// next reconcile applies the saved plan read back from its Secrets; status,
// history and versions read the same records, and the state directory
// keeps none.
func TestClusterRecordsInCluster(t *testing.T) {
	ctx := context.Background()
	c := k8stest.Get(t)
	ns := c.Namespace(t, "strata-records")
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	store, err := kuberecords.New(kuberecords.Config{Kubeconfig: c.Kubeconfig, Namespace: ns, Dir: filepath.Join(t.TempDir(), "held"), Writer: "controller-0"})
	if err != nil {
		t.Fatal(err)
	}
	opts := reconcile.Options{Tofu: tofutest.Binary(t), StateDir: state, Records: envstores.LeaderRecords(store)}
	rep, err := reconcile.Reconcile(ctx, env, history.OperationApply, opts)
	if err != nil {
		t.Fatalf("Reconcile(first) = %v", err)
	}
	if results, _ := reportResults(rep); results["app"] != history.ResultApplied {
		t.Fatalf("first reconcile results = %v, want app applied", results)
	}
	testkit.EditFile(t, env, "init.yaml", `appGeneration: "1"`, `appGeneration: "2"`)
	rep, err = reconcile.Reconcile(ctx, env, history.OperationApply, opts)
	if err != nil {
		t.Fatalf("Reconcile(replacement) = %v", err)
	}
	results, ids := reportResults(rep)
	id := ids["app"]
	if results["app"] != history.ResultHeld || id == "" {
		t.Fatalf("reconcile of a replacement = %v, want app held with a plan id", results)
	}
	for _, name := range []string{statedir.History, statedir.Held} {
		if _, err := os.Stat(filepath.Join(state, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("state directory has %s (%v), want the records in the cluster only", name, err)
		}
	}

	cluster := []string{"--kubeconfig", c.Kubeconfig, "--namespace", ns, "--state-dir", state}
	out, errOut, code := strata(t, append([]string{"approve", env, "app", id, "--reason", "planned replacement", "--by", "ana"}, cluster...)...)
	if code != 0 {
		t.Fatalf("strata approve --kubeconfig = %d:\n%s%s", code, out, errOut)
	}
	// Without the flags, the state directory has no such plan.
	if _, errOut, code := strata(t, "approve", env, "app", id, "--reason", "x", "--state-dir", state); code == 0 || !strings.Contains(errOut, "no held plan") {
		t.Errorf("strata approve (state directory) = %d, %q, want no held plan", code, errOut)
	}
	rep, err = reconcile.Reconcile(ctx, env, history.OperationApply, opts)
	if err != nil {
		t.Fatalf("Reconcile(approved) = %v", err)
	}
	if results, _ := reportResults(rep); results["app"] != history.ResultApplied {
		t.Errorf("reconcile after the approval = %v, want app applied", results)
	}
	held, err := c.Client.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{LabelSelector: "strata.dev/record"})
	if err != nil || len(held.Items) != 0 {
		t.Errorf("Secrets of held plans once applied = %d, %v, want none", len(held.Items), err)
	}

	out, errOut, code = strata(t, append([]string{"history", env, "app", "-o", "json"}, cluster...)...)
	var runs []history.Run
	if code != 0 || json.Unmarshal([]byte(out), &runs) != nil {
		t.Fatalf("strata history --kubeconfig = %d:\n%s%s", code, out, errOut)
	}
	var got []history.Result
	for _, r := range runs {
		got = append(got, r.Result)
	}
	if want := []history.Result{history.ResultApplied, history.ResultHeld, history.ResultApplied}; strings.Join(resultStrings(got), ",") != strings.Join(resultStrings(want), ",") {
		t.Errorf("strata history app --kubeconfig = %v, want %v", got, want)
	}

	out, errOut, code = strata(t, append([]string{"status", env, "-o", "json"}, cluster...)...)
	var status struct {
		Stacks []stackStatus `json:"stacks"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &status) != nil {
		t.Fatalf("strata status --kubeconfig = %d:\n%s%s", code, out, errOut)
	}
	for _, s := range status.Stacks {
		if s.LastRun == nil {
			t.Errorf("strata status --kubeconfig: stack %s has no last run, want the cluster's", s.Stack)
			continue
		}
		if s.Stack == "app" && (s.LastRun.Result != history.ResultApplied || s.LastRun.Number != runs[0].Number) {
			t.Errorf("strata status --kubeconfig: app's last run = #%d %s, want #%d applied", s.LastRun.Number, s.LastRun.Result, runs[0].Number)
		}
	}

	out, errOut, code = strata(t, append([]string{"versions", env, "-o", "json"}, cluster...)...)
	var rows []reconcile.VersionRow
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("strata versions --kubeconfig = %d:\n%s%s", code, out, errOut)
	}
	for _, r := range rows {
		if r.Applied == "" || r.LastRun == 0 {
			t.Errorf("strata versions --kubeconfig: %s applied %q, last run %d, want both from the cluster", r.Stack, r.Applied, r.LastRun)
		}
	}

	// The state directory's history, read without the flags, is empty.
	out, _, _ = strata(t, "history", env, "-o", "json", "--state-dir", state)
	if strings.TrimSpace(out) != "[]" {
		t.Errorf("strata history (state directory) = %s, want []", out)
	}
}

func resultStrings(rs []history.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

// TestNamespaceRecordsInCluster: strata controller keeps each watched
// namespace's runs in that namespace, apart from every other's.
func TestNamespaceRecordsInCluster(t *testing.T) {
	ctx := context.Background()
	c := k8stest.Get(t)
	recs := namespaceRecords(c.Kubeconfig, t.TempDir())
	namespaces := []string{c.Namespace(t, "strata-team-a"), c.Namespace(t, "strata-team-b")}
	for i, ns := range namespaces {
		// LoadNamespace names a namespace's environment after it.
		env := &environment.Environment{Dir: ns, Client: ns, Name: ns}
		h, _, closeHistory, err := recs.OpenHistory(ctx, env, environment.Settings{}, false)
		if err != nil {
			t.Fatalf("OpenHistory(%s) = %v", ns, err)
		}
		for range i + 1 {
			if _, err := h.Begin(ctx, history.Run{Client: ns, Env: ns, Stack: "network", Operation: history.OperationApply}); err != nil {
				t.Fatalf("Begin(%s) = %v", ns, err)
			}
		}
		closeHistory()
	}
	for i, ns := range namespaces {
		cms, err := c.Client.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{LabelSelector: "strata.dev/record=run"})
		if err != nil || len(cms.Items) != i+1 {
			t.Errorf("runs kept in namespace %s = %d, %v, want %d", ns, len(cms.Items), err, i+1)
		}
	}
}
