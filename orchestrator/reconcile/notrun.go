package reconcile

import (
	"errors"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/scheduler"
	"github.com/strata-iac/strata/orchestrator/source"
)

// notRun is the result of a stack the runner did not run, and why: it
// was skipped because a dependency did not succeed, or is waiting when
// that dependency, directly or not, waits on an upstream contract or is
// suspended (by design: the next reconcile tries again); otherwise it failed before it
// could run (its source could not be resolved or fetched, or the
// reconcile was stopped).
func notRun(name string, err error) runner.Result {
	result := history.ResultFailed
	var skip *scheduler.SkipError
	var waiting *runner.WaitingError
	var suspended *runner.SuspendedError
	switch {
	case errors.As(err, &skip) && skip.Task == name && (errors.As(err, &waiting) || errors.As(err, &suspended)):
		result = history.ResultWaiting
	case errors.As(err, &skip) && skip.Task == name:
		result = history.ResultSkipped
	}
	var fetch *source.FetchError
	return runner.Result{Stack: name, Run: history.Run{Stack: name, Result: result}, Message: err.Error(), FetchFailed: errors.As(err, &fetch)}
}
