package reconcile

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/scheduler"
)

func TestNotRun(t *testing.T) {
	t.Parallel()
	// The scheduler's own errors: net fails (waiting, or an error), app
	// depends on it, web on app.
	errsOf := func(netErr error) map[string]error {
		t.Helper()
		tasks := []scheduler.Task{{Name: "net"}, {Name: "app", Deps: []string{"net"}}, {Name: "web", Deps: []string{"app"}}}
		return scheduler.Run(context.Background(), tasks, 1, func(_ context.Context, name string) error {
			if name == "net" {
				return netErr
			}
			return nil
		})
	}
	waiting := errsOf(&runner.WaitingError{Stack: "net", Contract: "base", Key: "/configuration/base"})
	failed := errsOf(errors.New("resolve source of stack net: no such tag"))
	tests := []struct {
		name, stack string
		err         error
		want        history.Result
	}{
		{"a source that could not be fetched", "net", failed["net"], history.ResultFailed},
		{"skipped after a failure", "app", failed["app"], history.ResultSkipped},
		{"skipped after a skip", "web", failed["web"], history.ResultSkipped},
		{"waiting behind a waiting upstream", "app", waiting["app"], history.ResultWaiting},
		{"waiting two steps behind", "web", waiting["web"], history.ResultWaiting},
		{"stopped", "net", context.Canceled, history.ResultFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil {
				t.Fatalf("scheduler gave %s no error", tt.stack)
			}
			got := notRun(tt.stack, tt.err)
			if got.Stack != tt.stack || got.Run.Stack != tt.stack || got.Run.Result != tt.want || got.Message != tt.err.Error() {
				t.Errorf("notRun(%q, %v) = %+v, want result %q and the error as message", tt.stack, tt.err, got, tt.want)
			}
		})
	}
}
