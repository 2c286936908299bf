// Package testrepo edits the orchestrator's test repositories: the init
// ConfigMap of an environment in a copy of a fixture under testdata/ (the
// copy itself is internal/testkit's).
package testrepo
