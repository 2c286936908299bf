package runner

import (
	"os/exec"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/statefile"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

func TestLockOfDeadApply(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	host := hostname()
	started := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	dead := tofu.Record{Run: 3, Host: host, PID: gone.Process.Pid, PIDStart: "1", Started: started}
	lock := statefile.Lock{ID: "abc", Operation: "OperationTypeApply", Who: "ci@" + host, Created: started.Add(2 * time.Second), Held: true}
	exit, killed := 0, -1
	for _, tc := range []struct {
		name string
		lock func(*statefile.Lock)
		rec  func(*tofu.Record)
		want bool
	}{
		{"the dead apply's lock", nil, nil, true},
		{"a plan's lock", func(l *statefile.Lock) { l.Operation = "OperationTypePlan" }, nil, false},
		{"taken on another host", func(l *statefile.Lock) { l.Who = "ci@elsewhere" }, nil, false},
		{"taken before the apply started", func(l *statefile.Lock) { l.Created = started.Add(-time.Hour) }, nil, false},
		{"held by a process here", func(l *statefile.Lock) { l.HolderPID = 1 }, nil, false},
		{"an apply strata saw exit", nil, func(r *tofu.Record) { r.Exit = &exit }, false},
		{"an apply strata saw killed", nil, func(r *tofu.Record) { r.Exit = &killed }, true},
		{"a record of another host", nil, func(r *tofu.Record) { r.Host = "elsewhere" }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, r := lock, dead
			if tc.lock != nil {
				tc.lock(&l)
			}
			if tc.rec != nil {
				tc.rec(&r)
			}
			if got := lockOfDeadApply(l, r, host); got != tc.want {
				t.Errorf("lockOfDeadApply(%+v, %+v) = %v, want %v", l, r, got, tc.want)
			}
		})
	}
}
