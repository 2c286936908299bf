package runjob

import (
	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// Request is one stack's run, as a runner Job carries it.
type Request struct {
	// Run is the run the controller asked for. Its artifact's URL and
	// Digest say where the code is; Path is the stack's root module
	// inside it (the controller's Artifact.Dir relative to its Root).
	Run  controller.Request `json:"run"`
	Path string             `json:"path"`
	// Settings are the environment's (contract store, drift interval,
	// provider mirror, IAM allow-list); StateDir is the pod's.
	Settings environment.Settings `json:"settings"`
	// StackIntervals makes each stack's spec.interval its drift interval
	// (runner.Config.StackIntervals), as it is for the controller.
	StackIntervals bool `json:"stackIntervals,omitempty"`
	// Backend is where the stack's state goes when it has no
	// customConfiguration.
	Backend runner.StateBackend `json:"backend"`
	// Contracts are the documents the stack reads, by contract name, from
	// the controller's contract store: with a local store (which a pod
	// does not share), the pod's starts with them.
	Contracts map[string]contracts.Document `json:"contracts,omitempty"`
	// HashKey is the controller's key of the input hashes, so that the
	// run's hashes compare with the controller's history. Private: the
	// request travels in a Secret.
	HashKey []byte `json:"hashKey,omitempty"`
	// NoDefaultPolicy is the controller's --no-default-policy: the pod
	// judges the plan without the default policy bundle.
	NoDefaultPolicy bool `json:"noDefaultPolicy,omitempty"`
}

// Result is what the runner's last log line carries: the run's outcome,
// and, with a local contract store, the contract the run published, for
// the controller to publish in its own.
type Result struct {
	Outcome  controller.Outcome  `json:"outcome"`
	Contract *contracts.Document `json:"contract,omitempty"`
}

// Summary is how a run ended, short enough for a pod's termination
// message (4096 bytes): the stack's result, its run number, the plan's
// id, and the run's last line. The whole outcome is the runner's last log
// line.
type Summary struct {
	Stack   string `json:"stack"`
	Result  string `json:"result"`
	Run     int    `json:"run,omitempty"`
	PlanID  string `json:"planId,omitempty"`
	Message string `json:"message,omitempty"`
}

// MaxMessage bounds Summary.Message, so that the summary fits a
// termination message.
const MaxMessage = 3000

// Summarise is the summary of an outcome.
func Summarise(o controller.Outcome) Summary {
	msg := o.Result.Message
	if o.Error != "" {
		msg = o.Error
	}
	return Summary{
		Stack: o.Result.Stack, Result: string(o.Result.Run.Result), Run: o.Result.Run.Number,
		PlanID: o.Result.Run.PlanID, Message: short(msg),
	}
}

// short cuts a message to MaxMessage bytes, on a rune boundary.
func short(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
