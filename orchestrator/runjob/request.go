package runjob

import (
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// Request is one stack's run, as a runner Job carries it.
type Request struct {
	// Run is the run. Its Artifact's Dir and Root are not used: the code
	// is fetched from Source.
	Run runner.Request `json:"run"`
	// Source is where the stack's code is.
	Source Source `json:"source"`
	// Settings are the environment's (contract store, drift interval,
	// provider mirror, IAM allow-list); StateDir is the pod's.
	Settings environment.Settings `json:"settings"`
	// Backend is where the stack's state goes when it has no
	// customConfiguration.
	Backend runner.StateBackend `json:"backend"`
}

// Source is a stack's code: a tarball (gzip) the runner downloads, as
// source-controller serves its artifacts.
type Source struct {
	// URL is the artifact's (status.artifact.url).
	URL string `json:"url"`
	// Digest is "sha256:<hex>" of the tarball (status.artifact.digest);
	// a download with another digest is refused.
	Digest string `json:"digest"`
	// Path is the stack's root module inside the artifact (spec.path).
	Path string `json:"path"`
}

// Outcome is how a run ended, short enough for a termination message
// (4096 bytes): the stack's result, its run number, the held plan's id,
// and the run's last line.
type Outcome struct {
	Stack   string `json:"stack"`
	Result  string `json:"result"`
	Run     int    `json:"run,omitempty"`
	PlanID  string `json:"planId,omitempty"`
	Message string `json:"message,omitempty"`
}

// MaxMessage bounds Outcome.Message, so that the outcome fits a
// termination message.
const MaxMessage = 3000
