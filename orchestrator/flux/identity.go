package flux

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"

	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/regularfile"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// An environment's identity is its directory. Its state, contracts, held
// plans and history are keyed by its clientId and environment, so no two
// environments of a repository may share them: CheckIdentity compares the
// environment with every environments/<client>/<env> directory of the
// repository that holds an init.yaml.

// CheckIdentity reports every other environment of the repository whose
// init ConfigMap names the same clientId and environment as env.
func CheckIdentity(env *environment.Environment) (diag.Problems, error) {
	dirs, err := filepath.Glob(filepath.Join(env.Root, environmentsDir, "*", "*", InitFile))
	if err != nil {
		return nil, fmt.Errorf("list environments of %s: %w", env.Root, err)
	}
	sort.Strings(dirs)
	file := path.Join(env.Dir, InitFile)
	var problems diag.Problems
	for _, f := range dirs {
		rel, err := filepath.Rel(env.Root, filepath.Dir(f))
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(rel)
		if rel == env.Dir {
			continue
		}
		client, name, err := initIdentity(f)
		if err != nil {
			return nil, fmt.Errorf("read identity of %s: %w", rel, err)
		}
		if client == "" {
			client = path.Base(path.Dir(rel))
		}
		if name == "" {
			name = path.Base(rel)
		}
		if client != env.Client || name != env.Name {
			continue
		}
		problems = append(problems, diag.Problem{
			File:   file,
			Object: kindConfigMap + "/" + InitConfigMap,
			Message: fmt.Sprintf("clientId %q and environment %q are also those of %s (%s/%s): state, contracts, held plans and history are keyed by them, so the two environments would act on each other's infrastructure",
				env.Client, env.Name, rel, rel, InitFile),
			Fix: fmt.Sprintf("give each environment its own clientId and environment in its %s; the directory %s/<client>/<env> says which", InitFile, environmentsDir),
		})
	}
	return problems, nil
}

// initIdentity reads clientId and environment from the init ConfigMap of an
// init.yaml, without the rest of its environment.
func initIdentity(file string) (client, name string, err error) {
	b, err := regularfile.ReadFile(file, MaxManifestBytes)
	if err != nil {
		return "", "", err
	}
	for _, doc := range splitDocuments(b) {
		var cm struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Data map[string]string `json:"data"`
		}
		if yaml.Unmarshal(doc, &cm) != nil || cm.Kind != kindConfigMap || cm.Metadata.Name != InitConfigMap {
			// A broken init.yaml is its own environment's problem.
			continue
		}
		return cm.Data[environment.InitClientID], cm.Data[environment.InitEnvironment], nil
	}
	return "", "", nil
}
