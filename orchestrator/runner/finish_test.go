package runner

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/source"
)

// newTestRunner returns a runner whose history is a real store in a
// temporary directory.
func newTestRunner(t *testing.T) *Runner {
	t.Helper()
	dir := t.TempDir()
	h, err := history.Open(context.Background(), filepath.Join(dir, "history.db"), history.WithTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return New(Config{StateDir: dir, History: h})
}

func TestNotBegun(t *testing.T) {
	ctx := context.Background()
	waitingFor := func(contract string) error {
		return &WaitingError{Stack: "app", Contract: contract, Key: "/configuration/" + contract, Producer: contract}
	}
	type want struct {
		result history.Result
		number int // the run's number in history; 0 when nothing was recorded
		runs   int // runs of the stack in history afterwards
	}
	tests := []struct {
		name string
		errs []error // one notBegun per error, in order
		want want    // after the last
	}{
		{"waiting is recorded", []error{waitingFor("base")}, want{history.ResultWaiting, 1, 1}},
		{"still waiting for the same contract adds no run", []error{waitingFor("base"), waitingFor("base"), waitingFor("base")},
			want{history.ResultWaiting, 1, 1}},
		{"waiting for another contract is a new run", []error{waitingFor("base"), waitingFor("net")}, want{history.ResultWaiting, 2, 2}},
		{"a failure is recorded", []error{errors.New("gather inputs of stack app: read contract: denied")}, want{history.ResultFailed, 1, 1}},
		{"a failure after waiting", []error{waitingFor("base"), errors.New("boom")}, want{history.ResultFailed, 2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRunner(t)
			req := Request{Operation: history.OperationApply, Client: "acme", Env: "dev",
				Stack: &environment.Stack{Name: "app"}, Artifact: source.Artifact{Version: "1.0.0"}}
			var res Result
			for _, e := range tt.errs {
				var err error
				res, err = r.notBegun(ctx, r.newState(req, nil), e)
				if !errors.Is(err, e) {
					t.Fatalf("notBegun(%v) error = %v, want it", e, err)
				}
			}
			last := tt.errs[len(tt.errs)-1]
			if res.Run.Result != tt.want.result || res.Run.Number != tt.want.number || res.Message != last.Error() || res.Run.Error != last.Error() {
				t.Errorf("notBegun(%v) = %s #%d (%q), want %s #%d saying so", last, res.Run.Result, res.Run.Number, res.Message, tt.want.result, tt.want.number)
			}
			runs, err := r.cfg.History.List(ctx, "acme", "dev", "app", 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != tt.want.runs || runs[0].Result != tt.want.result || runs[0].ToVersion != "1.0.0" {
				t.Errorf("history after %s = %+v, want %d runs, the newest %s at 1.0.0", tt.name, runs, tt.want.runs, tt.want.result)
			}
		})
	}
}

// TestRemoveWithoutWorkspace removes a stack whose workspace is gone:
// nothing can be planned, so it fails, says what to do, and records
// nothing.
func TestRemoveWithoutWorkspace(t *testing.T) {
	ctx := context.Background()
	r := newTestRunner(t)
	res, err := r.Remove(ctx, RemoveRequest{Operation: history.OperationApply, Client: "acme", Env: "dev", Stack: "worker",
		Last: history.Run{Number: 3, Stack: "worker", ToVersion: "0.2.0"}})
	if err == nil || !strings.Contains(err.Error(), "its workspace") || !strings.Contains(err.Error(), "put the stack back") {
		t.Fatalf("Remove(worker) error = %v, want it to say the workspace is gone and what to do", err)
	}
	if res.Run.Result != history.ResultFailed || res.Run.Number != 0 || res.Message != err.Error() {
		t.Errorf("Remove(worker) = %s #%d (%q), want failed, unrecorded, with the error as message", res.Run.Result, res.Run.Number, res.Message)
	}
	if runs, err := r.cfg.History.List(ctx, "acme", "dev", "worker", 0); err != nil || len(runs) != 0 {
		t.Errorf("history of worker = %+v, %v, want no runs", runs, err)
	}
}
