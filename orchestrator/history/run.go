package history

import (
	"encoding/json"
	"time"
)

// Summary counts a plan's resource changes.
type Summary struct {
	Add     int `json:"add"`
	Change  int `json:"change"`
	Destroy int `json:"destroy"`
}

// Resource is one managed resource of a stack's state: its type and name,
// the module it is in ("" for the root), and its id.
type Resource struct {
	Type   string `json:"type"`
	Name   string `json:"name"`
	Module string `json:"module,omitempty"`
	ID     string `json:"id,omitempty"`
}

// Run is one run of one stack.
//
// In JSON every field has a lowercase name; Duration is written as
// "durationMs", whole milliseconds, which is what people and dashboards
// read.
type Run struct {
	// Number counts the stack's runs from 1; Begin assigns it.
	Number int    `json:"number"`
	Client string `json:"client"`
	Env    string `json:"env"`
	Stack  string `json:"stack"`
	// Namespace is the Terraform object's namespace ("" in runs recorded
	// before strata kept it): the stack of a name that two namespaces
	// use is named after it (environment.Qualified), and the runs of the
	// name alone say whose they are.
	Namespace string    `json:"namespace,omitempty"`
	Operation Operation `json:"operation"`
	// Cause is why the stack changed: install, upgrade, config, variables,
	// upstream, drift, removed or rehashed (the hash key changed, see
	// Hashes); "" when nothing changed.
	Cause       string `json:"cause"`
	FromVersion string `json:"fromVersion"`
	ToVersion   string `json:"toVersion"`
	// Digest is the digest of the stack's source.
	Digest string `json:"digest"`
	// Fingerprint is a keyed hash of every input: source digest,
	// variables, upstream contracts and backend.
	Fingerprint string `json:"fingerprint"`
	// Inputs has a short hash of each of the stack's own variables, and
	// Upstreams the content hash of each contract it read, so that the next
	// run can name what changed.
	Inputs    map[string]string `json:"inputs,omitempty"`
	Upstreams map[string]string `json:"upstreams,omitempty"`
	// Hashes names the scheme of Fingerprint, Inputs, Upstreams and Spec:
	// "hmac-sha256/<key id>", keyed so that no private input can be
	// brute-forced from them; "" for runs recorded before strata keyed
	// them (plain SHA-256).
	Hashes string `json:"hashes,omitempty"`
	// Spec has a short hash of each Terraform field that changes how
	// tofu runs the stack (spec.targets, spec.workspace, …), for the
	// fields that are set, so that the next run can name which changed.
	Spec    map[string]string `json:"spec,omitempty"`
	Summary Summary           `json:"summary"`
	Result  Result            `json:"result"`
	Error   string            `json:"error"`
	PlanID  string            `json:"planId"`
	// Contract is the key of the contract document the run published, if
	// any.
	Contract string `json:"contract"`
	// Outputs are the root module's outputs once the run's plan is
	// applied, by name, sorted: set by a run whose plan had changes (one
	// without changes is not read), for what lists a stack's outputs
	// without publishing them (status.availableOutputs).
	Outputs []string `json:"outputs,omitempty"`
	// Inventory are the managed resources an apply left in the state,
	// when the stack asks for them (spec.enableInventory).
	Inventory []Resource    `json:"inventory,omitempty"`
	StartedAt time.Time     `json:"startedAt"`
	Duration  time.Duration `json:"-"`
	// StateSerial and StateLineage identify the state a successful apply
	// left (0 and "" when the backend's state is not read): a state that
	// differs was changed outside strata.
	StateSerial  uint64 `json:"stateSerial,omitempty"`
	StateLineage string `json:"stateLineage,omitempty"`
	// Interrupted lists the resources whose apply an interrupted run
	// stopped (tofu taints them); empty for any other run.
	Interrupted []string `json:"interrupted,omitempty"`
	// Webhook is the post-planning webhook (spec.webhooks, its URL)
	// that refused the run's plan, for a run that failed so; Error then
	// says why, in the webhook's words.
	Webhook string `json:"webhook,omitempty"`
	// HealthCheck is what the stack's health checks (spec.healthChecks)
	// found after the run applied, or after a run without changes that
	// checked again the ones that had failed; nil when none ran.
	HealthCheck *HealthCheck `json:"healthCheck,omitempty"`
	// Lock is the state lock the run released (spec.tfstate.forceUnlock)
	// or failed on, by ID; nil when it met none.
	Lock *StateLock `json:"lock,omitempty"`
	// Note says what a person did, for the runs that record it: the lock
	// an unlock released, by whom and why.
	Note string `json:"note,omitempty"`
	// DestroyResourcesOnDeletion is the stack's
	// spec.destroyResourcesOnDeletion when the run began: once the stack
	// leaves the repository, its last good run says whether its resources
	// are destroyed or kept.
	DestroyResourcesOnDeletion bool `json:"destroyResourcesOnDeletion,omitempty"`
}

// StateLock is what a run met of its state's lock: the lock it released
// before its plan, or the one another held that it failed on.
type StateLock struct {
	Released string `json:"released,omitempty"`
	Held     string `json:"held,omitempty"`
}

// runJSON is Run as stored: Duration in milliseconds.
type runJSON struct {
	plainRun
	DurationMs int64 `json:"durationMs"`
}

type plainRun Run

// MarshalJSON writes the run with its duration as "durationMs".
func (r Run) MarshalJSON() ([]byte, error) {
	return json.Marshal(runJSON{plainRun: plainRun(r), DurationMs: r.Duration.Milliseconds()})
}

// UnmarshalJSON reads a run written by MarshalJSON.
func (r *Run) UnmarshalJSON(data []byte) error {
	var j runJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*r = Run(j.plainRun)
	r.Duration = time.Duration(j.DurationMs) * time.Millisecond
	return nil
}

// HealthCheck is the outcome of a run's health checks.
type HealthCheck struct {
	// Failed names the first check that failed ("" when all passed), and
	// Message says why; Event is what the Tofu Controller's event says of
	// it ("TCP health check error: NAME, url: ADDRESS").
	Failed  string `json:"failed,omitempty"`
	Message string `json:"message,omitempty"`
	Event   string `json:"event,omitempty"`
}

// Passed reports whether every check passed.
func (h HealthCheck) Passed() bool { return h.Failed == "" }
