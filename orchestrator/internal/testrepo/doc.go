// Package testrepo gives the orchestrator's tests their repositories: a
// copy of a fixture under testdata/, edits of its init ConfigMap, and a log
// sink safe for concurrent runs.
package testrepo
