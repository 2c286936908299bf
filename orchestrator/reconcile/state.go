package reconcile

import (
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// stateBackend is the runner's state backend for the environment's state
// settings, which validation checked.
func stateBackend(s environment.StateSettings) runner.StateBackend {
	kind := runner.BackendLocal
	if s.Backend == environment.StateS3 {
		kind = runner.BackendS3
	}
	return runner.StateBackend{Kind: kind, Bucket: s.Bucket, Region: s.Region, Endpoint: s.Endpoint}
}
