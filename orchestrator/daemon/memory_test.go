package daemon_test

import (
	"io"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestMemoryDoesNotGrowWithHistory: what the daemon holds between passes
// is the last report of each environment, a small struct per stack; the
// runs themselves (plans, outputs, logs) live on disk. After its stacks are
// applied, passes with nothing due each add to the history on disk, and
// the heap the daemon keeps stays the same: the heap after the last of
// many passes is within a small slack of the heap after the first few.
func TestMemoryDoesNotGrowWithHistory(t *testing.T) {
	root := testrepo.Fixture(t, "layered")
	dir := filepath.Join(root, "environments", "acme", "dev")
	log := runlog.New(io.Discard, nil) // a log kept in memory would grow
	d, err := daemon.New(daemon.Config{
		Environments: []string{dir},
		Interval:     time.Hour,
		Logger:       log,
		Pipeline: reconcile.Pipeline{Options: reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: t.TempDir(), MaxRunners: 3, DriftInterval: time.Hour, Logger: log,
		}},
	})
	if err != nil {
		t.Fatalf("New() = %v", err)
	}
	h := &harness{t: t, d: d}
	h.start()
	pass := func(n int) {
		if n > 1 {
			d.Trigger()
		}
		h.waitPass(n)
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC() // the first frees what finalizers held
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const warm, passes = 5, 80
	for n := 1; n <= warm; n++ {
		pass(n)
	}
	st := d.Status()
	stacks := len(st.Environments[0].Report.Stacks)
	before := heap()
	for n := warm + 1; n <= passes; n++ {
		pass(n)
	}
	after := heap()
	// A leak of one report per stack per pass (a few hundred bytes each)
	// would add stacks × passes × that: well above the slack.
	const slack = 192 << 10
	if after > before+slack {
		t.Errorf("heap after %d passes with nothing due = %d bytes, after %d = %d: grew %d bytes (%d per pass, %d stacks), want at most %d in all",
			passes, after, warm, before, after-before, (after-before)/uint64(passes-warm), stacks, slack)
	}
	t.Logf("heap after pass %d: %d bytes; after pass %d: %d bytes (%d stacks)", warm, before, passes, after, stacks)
}
