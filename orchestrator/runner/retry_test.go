package runner

import (
	"context"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
)

// TestWaitToRetry: a stack whose last run failed less than its retry
// interval ago (an hour ago here) ends as Run would end it, failed with a
// *RetryError carrying that run; past the interval, suspended, a removal,
// outside the reconcile loop or after a good run, Run goes on.
func TestWaitToRetry(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		last      history.Result
		retryWait bool
		stack     environment.Stack
		removal   bool
		want      bool
	}{
		{name: "failed within the interval", last: history.ResultFailed, retryWait: true, stack: environment.Stack{RetryInterval: 2 * time.Hour}, want: true},
		{name: "failed past the interval", last: history.ResultFailed, retryWait: true, stack: environment.Stack{RetryInterval: 30 * time.Minute}},
		{name: "failed past the default interval", last: history.ResultFailed, retryWait: true},
		{name: "applied", last: history.ResultApplied, retryWait: true, stack: environment.Stack{RetryInterval: 2 * time.Hour}},
		{name: "one-shot apply", last: history.ResultFailed, stack: environment.Stack{RetryInterval: 2 * time.Hour}},
		{name: "suspended", last: history.ResultFailed, retryWait: true, stack: environment.Stack{RetryInterval: 2 * time.Hour, Suspend: true}},
		{name: "removal", last: history.ResultFailed, retryWait: true, stack: environment.Stack{RetryInterval: 2 * time.Hour}, removal: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			store := historyOf(t, dir, history.Run{Operation: history.OperationApply, Result: tt.last, Error: "runner pod refused"})
			r := New(Config{StateDir: dir, History: store, RetryWait: tt.retryWait})
			s := tt.stack
			s.Name = "app"
			req := Request{Operation: history.OperationApply, Client: "acme", Env: "dev", Stack: &s}
			if tt.removal {
				req.Removal = &history.Run{Number: 1}
			}
			res, retry := r.WaitToRetry(ctx, req)
			if got := retry != nil; got != tt.want {
				t.Fatalf("WaitToRetry(%s) = %v, want a retry error: %v", tt.name, retry, tt.want)
			}
			if !tt.want {
				return
			}
			if retry.Last.Number != 1 || retry.Last.Error != "runner pod refused" || !retry.Explicit {
				t.Errorf("WaitToRetry(%s) = %+v, want run #1's failure, from spec.retryInterval", tt.name, retry)
			}
			if res.Run.Result != history.ResultFailed || res.Run.Error != "runner pod refused" || res.Message != retry.Error() {
				t.Errorf("WaitToRetry(%s) result = %s %q, message %q, want failed with the last run's error and %q", tt.name, res.Run.Result, res.Run.Error, res.Message, retry.Error())
			}
		})
	}
}

// TestBackoff: the Tofu Controller's ExponentialBackoff, the retry
// interval doubled for each failure in a row, capped.
func TestBackoff(t *testing.T) {
	tests := []struct {
		interval, max time.Duration
		failures      int
		want          time.Duration
	}{
		{15 * time.Second, 0, 0, 15 * time.Second},
		{15 * time.Second, 0, 1, 30 * time.Second},
		{15 * time.Second, 0, 3, 2 * time.Minute},
		{15 * time.Second, time.Minute, 5, time.Minute},
		{time.Hour, 0, 40, 24 * time.Hour},
	}
	for _, tt := range tests {
		if got := backoff(tt.interval, tt.max, tt.failures); got != tt.want {
			t.Errorf("backoff(%s, %s, %d) = %s, want %s", tt.interval, tt.max, tt.failures, got, tt.want)
		}
	}
}
