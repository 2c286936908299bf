package orchestrator

import (
	"fmt"
	"strings"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// Keys of the init ConfigMap that choose where state goes for stacks
// without a backendConfig.customConfiguration. Flux ignores them.
const (
	// InitStateBackend is local (the default) or s3.
	InitStateBackend = "stateBackend"
	// InitStateBucket is the s3 backend's bucket; required for s3.
	InitStateBucket = "stateBucket"
	// InitStateRegion is its region; default the init key region.
	InitStateRegion = "stateRegion"
	// InitStateEndpoint points it at an S3-compatible service.
	InitStateEndpoint = "stateEndpoint"
)

// stateBackend reads the environment's state backend from its init
// ConfigMap.
func stateBackend(env *environment.Environment) (runner.StateBackend, error) {
	get := func(k string) string { return strings.TrimSpace(env.Init[k]) }
	b := runner.StateBackend{Kind: get(InitStateBackend), Bucket: get(InitStateBucket), Region: get(InitStateRegion), Endpoint: get(InitStateEndpoint)}
	if b.Region == "" {
		b.Region = get("region")
	}
	where := fmt.Sprintf("%s/%s", env.Dir, environment.InitFile)
	switch b.Kind {
	case "", runner.BackendLocal:
		b.Kind = runner.BackendLocal
	case runner.BackendS3:
		if b.Bucket == "" {
			return b, fmt.Errorf("%s: init key %s is s3 but %s is not set: name the state bucket", where, InitStateBackend, InitStateBucket)
		}
		if b.Region == "" {
			return b, fmt.Errorf("%s: init key %s is s3 but neither %s nor region is set", where, InitStateBackend, InitStateRegion)
		}
	default:
		return b, fmt.Errorf("%s: init key %s is %q: want %s or %s", where, InitStateBackend, b.Kind, runner.BackendLocal, runner.BackendS3)
	}
	return b, nil
}
