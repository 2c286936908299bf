package reconcile

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/policy"
)

// allowAll is a policy that allows every plan.
type allowAll struct{}

func (allowAll) Eval(context.Context, []byte, policy.Meta) (policy.Decision, error) {
	return policy.Decision{}, nil
}

func TestLazyPolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		evals   int
		loadErr error
		// wantLoads is how many times the policies are loaded.
		wantLoads int32
		wantErr   bool
		wantLog   int
	}{
		{name: "no plan judged: never loaded", evals: 0, wantLoads: 0},
		{name: "many plans, side by side: loaded once", evals: 32, wantLoads: 1},
		{name: "a policy that fails to load fails every plan, said once", evals: 8, loadErr: errors.New("parse broken.rego: unexpected eof"), wantLoads: 1, wantErr: true, wantLog: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var loads atomic.Int32
			var logs bytes.Buffer
			p := newLazyPolicy(func(ctx context.Context) (runner.Policy, error) {
				loads.Add(1)
				if ctx.Err() != nil {
					t.Errorf("load(ctx) with ctx.Err() = %v, want a context the first plan cannot cancel", ctx.Err())
				}
				if tt.loadErr != nil {
					return runner.FailingPolicy(tt.loadErr), tt.loadErr
				}
				return allowAll{}, nil
			}, slog.New(slog.NewTextHandler(&logs, nil)))
			// The first plan's context is already cancelled (its stack timed
			// out): the load must not inherit that.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var wg sync.WaitGroup
			errs := make([]error, tt.evals)
			for i := range tt.evals {
				wg.Go(func() { _, errs[i] = p.Eval(ctx, []byte("{}"), policy.Meta{}) })
			}
			wg.Wait()
			if got := loads.Load(); got != tt.wantLoads {
				t.Errorf("loads = %d, want %d", got, tt.wantLoads)
			}
			for i, err := range errs {
				if (err != nil) != tt.wantErr {
					t.Errorf("Eval #%d = %v, want error %v", i, err, tt.wantErr)
				}
			}
			if got := strings.Count(logs.String(), "policy failed to load"); got != tt.wantLog {
				t.Errorf("log lines saying the policy failed to load = %d, want %d:\n%s", got, tt.wantLog, logs.String())
			}
		})
	}
}
