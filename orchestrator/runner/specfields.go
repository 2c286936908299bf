package runner

import (
	"encoding/json"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// specFields gives each Terraform field that changes how tofu runs the
// stack, by its name in the spec, for the fields that are set, as
// canonical JSON to hash (keyed, see hashes.go): a field set, changed or
// unset changes the stack's fingerprint, and the next run names it as the
// cause. The content of spec.fileMappings is hashed with where it goes,
// the values of spec.backendConfigsFrom with their keys, the stack's
// environment with its names and the CLI configuration of
// spec.cliConfigSecretRef, never kept.
// The spec fields whose values are private, by the names specFields
// gives them.
const (
	specBackendConfigsFrom = "spec.backendConfigsFrom"
	specEnv                = "spec.runnerPodTemplate.spec.env"
	specCLIConfig          = "spec.cliConfigSecretRef"
)

func specFields(run environment.Run) (map[string][]byte, error) {
	fields := map[string]any{}
	if len(run.Targets) > 0 {
		fields["spec.targets"] = run.Targets
	}
	if run.PlanNoLock {
		fields["spec.plan.lock"] = false
	}
	if run.LockTimeout > 0 {
		fields["spec.tfstate.lockTimeout"] = run.LockTimeout.String()
	}
	if len(run.VarFiles) > 0 {
		fields["spec.tfVarsFiles"] = run.VarFiles
	}
	if run.Parallelism > 0 {
		fields["spec.parallelism"] = run.Parallelism
	}
	if run.RefreshBeforeApply {
		fields["spec.refreshBeforeApply"] = true
	}
	if run.PlanOnly {
		fields["spec.planOnly"] = true
	}
	if run.Workspace != "" {
		fields["spec.workspace"] = run.Workspace
	}
	if run.Force {
		fields["spec.force"] = true
	}
	if run.Destroy {
		fields["spec.destroy"] = true
	}
	if len(run.Files) > 0 {
		type file struct {
			Location, Path string
			Content        []byte
		}
		files := make([]file, 0, len(run.Files))
		for _, f := range run.Files {
			files = append(files, file{f.Location, f.Path, f.Content})
		}
		fields["spec.fileMappings"] = files
	}
	if len(run.BackendConfigs) > 0 {
		type setting struct{ Key, Value string }
		settings := make([]setting, 0, len(run.BackendConfigs))
		for _, b := range run.BackendConfigs {
			settings = append(settings, setting{b.Key, b.Value})
		}
		fields[specBackendConfigsFrom] = settings
	}
	if len(run.Env) > 0 {
		env := make(map[string]string, len(run.Env))
		for _, e := range run.Env {
			env[e.Name] = e.Value
		}
		fields[specEnv] = env
	}
	if run.CLIConfig != nil {
		fields[specCLIConfig] = run.CLIConfig.Text
	}
	if len(fields) == 0 {
		return nil, nil
	}
	out := make(map[string][]byte, len(fields))
	for k, v := range fields {
		b, err := json.Marshal(v) // map keys are sorted, so this is canonical
		if err != nil {
			return nil, err
		}
		out[k] = b
	}
	return out, nil
}
