// Package testrepo gives tests the orchestrator's test repositories: a
// copy of a fixture under testdata/ (Fixture, through internal/testkit's
// Copy), and edits of the init ConfigMap of an environment in one.
package testrepo
