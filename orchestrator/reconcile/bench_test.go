package reconcile_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// benchReconcile applies the layered fixture once, then measures further
// applies with the given drift interval. Compare the two benchmarks below
// as a ratio: the baseline re-plans every stack (a drift check), the other
// is what an ordinary reconcile costs when nothing changed.
func benchReconcile(b *testing.B, drift time.Duration) {
	root := testrepo.Fixture(b, "layered")
	dir := filepath.Join(root, "environments", "acme", "dev")
	opts := reconcile.Options{Tofu: tofutest.Binary(b), StateDir: b.TempDir(), MaxRunners: 2, DriftInterval: time.Hour}
	ctx := context.Background()
	if rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, opts); err != nil || !rep.Converged() {
		b.Fatalf("Reconcile(%q) = %v, want a clean first apply", dir, err)
	}
	opts.DriftInterval = drift
	b.ResetTimer()
	for b.Loop() {
		if rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, opts); err != nil || !rep.Converged() {
			b.Fatalf("Reconcile(%q) = %v", dir, err)
		}
	}
}

// BenchmarkReconcileDriftCheck is the baseline: every stack is planned.
func BenchmarkReconcileDriftCheck(b *testing.B) { benchReconcile(b, 0) }

// BenchmarkReconcileUnchanged skips init and plan for unchanged stacks.
func BenchmarkReconcileUnchanged(b *testing.B) { benchReconcile(b, time.Hour) }
