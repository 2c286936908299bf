//go:build k8s

package kuberecords_test

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
)

// runs begins and records a run of stack for each result, in order; a
// "running" result is begun only.
func runs(t *testing.T, s *kuberecords.Store, env, stack string, results ...history.Result) {
	t.Helper()
	ctx := context.Background()
	for _, res := range results {
		r, err := s.Begin(ctx, history.Run{Client: "acme", Env: env, Stack: stack, Operation: history.OperationApply})
		if err != nil {
			t.Fatalf("Begin(%s) = %v", stack, err)
		}
		if res == history.ResultRunning {
			continue
		}
		r.Result = res
		if err := s.Record(ctx, r); err != nil {
			t.Fatalf("Record(%s #%d) = %v", stack, r.Number, err)
		}
	}
}

// numbers lists the numbers and results of the stack's runs, newest first.
func numbers(t *testing.T, s *kuberecords.Store, env, stack string) map[int]history.Result {
	t.Helper()
	rs, err := s.List(context.Background(), "acme", env, stack, 0)
	if err != nil {
		t.Fatalf("List(%s) = %v", stack, err)
	}
	out := map[int]history.Result{}
	for _, r := range rs {
		out[r.Number] = r.Result
	}
	return out
}

func TestRetentionInCluster(t *testing.T) {
	c := k8stest.Get(t)
	s := open(t, c.Kubeconfig, c.Namespace(t, "records"), 3)
	runs(t, s, "dev", "network", history.ResultFailed, history.ResultApplied, history.ResultFailed, history.ResultFailed, history.ResultFailed, history.ResultFailed)
	// The newest three, the first run and the newest good apply beyond
	// them.
	want := map[int]history.Result{6: history.ResultFailed, 5: history.ResultFailed, 4: history.ResultFailed, 2: history.ResultApplied, 1: history.ResultFailed}
	if got := numbers(t, s, "dev", "network"); !cmp.Equal(got, want) {
		t.Errorf("runs kept with Keep 3 = %v, want %v", got, want)
	}
	// Runs are deleted as the next one begins: once a newer apply is
	// good, the older one goes with the next run; the first stays.
	runs(t, s, "dev", "network", history.ResultApplied, history.ResultFailed)
	want = map[int]history.Result{8: history.ResultFailed, 7: history.ResultApplied, 6: history.ResultFailed, 1: history.ResultFailed}
	if got := numbers(t, s, "dev", "network"); !cmp.Equal(got, want) {
		t.Errorf("runs kept with Keep 3 after a newer good apply = %v, want %v", got, want)
	}
	// An environment's own retention (Retain): by count or by age, and
	// gone told of each run deleted.
	var gone []int
	s.Retain("acme", "prod", history.Retention{Runs: 2, Age: 90 * time.Minute}, func(stack string, n int) { gone = append(gone, n) })
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5 {
		r, err := s.Begin(context.Background(), history.Run{Client: "acme", Env: "prod", Stack: "network", Operation: history.OperationApply, StartedAt: start.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		r.Result = history.ResultFailed
		if err := s.Record(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	// #5 and #4 by count, #4 by age (an hour before #5), #1 the first.
	want = map[int]history.Result{5: history.ResultFailed, 4: history.ResultFailed, 1: history.ResultFailed}
	if got := numbers(t, s, "prod", "network"); !cmp.Equal(got, want) || !cmp.Equal(gone, []int{2, 3}) {
		t.Errorf("runs kept with keep 2 runs or 90m = %v, gone %v, want %v, gone [2 3]", got, gone, want)
	}
}

// TestInterruptInCluster is a replica taking over: the runs the last
// leader left running are interrupted when the next leader opens the
// records to reconcile, and a runner pod that outlived the last leader
// still records how its run ended.
func TestInterruptInCluster(t *testing.T) {
	ctx := context.Background()
	c := k8stest.Get(t)
	ns := c.Namespace(t, "records")
	first := open(t, c.Kubeconfig, ns, 0)
	runs(t, first, "dev", "network", history.ResultApplied, history.ResultRunning)
	runs(t, first, "dev", "cluster", history.ResultRunning)
	runs(t, first, "prod", "network", history.ResultRunning)
	running, _, err := first.Last(ctx, "acme", "dev", "cluster")
	if err != nil {
		t.Fatal(err)
	}

	// A runner pod, a command or the web view opening the records changes
	// nothing; the leader that takes over marks what the first one left
	// running as it opens them to reconcile acme/dev.
	next := open(t, c.Kubeconfig, ns, 0)
	env := &environment.Environment{Client: "acme", Name: "dev"}
	for _, recs := range []envstores.Records{envstores.SharedRecords(next), envstores.LeaderRecords(next)} {
		if _, _, closeHistory, err := recs.OpenHistory(ctx, env, environment.Settings{}, true); err != nil {
			t.Fatalf("OpenHistory(acme/dev, read only) = %v", err)
		} else {
			closeHistory()
		}
	}
	if _, _, closeHistory, err := envstores.SharedRecords(next).OpenHistory(ctx, env, environment.Settings{}, false); err != nil {
		t.Fatalf("SharedRecords.OpenHistory(acme/dev) = %v", err)
	} else {
		closeHistory()
	}
	if got, want := numbers(t, next, "dev", "cluster"), map[int]history.Result{1: history.ResultRunning}; !cmp.Equal(got, want) {
		t.Errorf("runs of dev/cluster after opens that do not lead = %v, want %v", got, want)
	}
	_, _, closeHistory, err := envstores.LeaderRecords(next).OpenHistory(ctx, env, environment.Settings{}, false)
	if err != nil {
		t.Fatalf("LeaderRecords.OpenHistory(acme/dev) = %v", err)
	}
	closeHistory()
	tests := []struct {
		env, stack string
		want       map[int]history.Result
	}{
		{"dev", "network", map[int]history.Result{1: history.ResultApplied, 2: history.ResultInterrupted}},
		{"dev", "cluster", map[int]history.Result{1: history.ResultInterrupted}},
		{"prod", "network", map[int]history.Result{1: history.ResultRunning}},
	}
	for _, tt := range tests {
		if got := numbers(t, next, tt.env, tt.stack); !cmp.Equal(got, tt.want) {
			t.Errorf("runs of %s/%s after Interrupt(acme/dev) = %v, want %v", tt.env, tt.stack, got, tt.want)
		}
	}

	// A run whose writer was still going (a runner pod outliving its
	// leader) keeps the result that writer records.
	running.Result = history.ResultApplied
	if err := first.Record(ctx, running); err != nil {
		t.Fatalf("Record(after Interrupt) = %v", err)
	}
	if got, want := numbers(t, next, "dev", "cluster"), map[int]history.Result{1: history.ResultApplied}; !cmp.Equal(got, want) {
		t.Errorf("runs of dev/cluster recorded after Interrupt = %v, want %v", got, want)
	}
}

func TestPlanTooLargeInCluster(t *testing.T) {
	ctx := context.Background()
	c := k8stest.Get(t)
	s := open(t, c.Kubeconfig, c.Namespace(t, "records"), 0)
	plan := make([]byte, kuberecords.MaxPlanBytes+(256<<10))
	rand.Read(plan)
	pf := filepath.Join(t.TempDir(), "strata.tfplan")
	if err := os.WriteFile(pf, plan, 0o600); err != nil {
		t.Fatal(err)
	}
	h := approval.Held{Client: "acme", Env: "dev", Stack: "network", PlanID: "plan-0123456789ab", Reason: "deny_delete", HeldAt: time.Now()}
	if _, err := s.Hold(ctx, h, pf, nil, ""); !errors.Is(err, kuberecords.ErrPlanTooLarge) {
		t.Errorf("Hold(%d KiB of random plan) = %v, want %v", len(plan)>>10, err, kuberecords.ErrPlanTooLarge)
	}
	if held, err := s.HeldPlans(ctx, "acme", "dev", "network"); err != nil || len(held) != 0 {
		t.Errorf("HeldPlans() after a plan too large = %d plans, %v, want none held", len(held), err)
	}
}
