package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/policy"
)

// Report is what one reconcile did, stack by stack in graph order.
type Report struct {
	Client      string            `json:"client"`
	Environment string            `json:"environment"`
	Class       string            `json:"environmentClass"`
	Operation   history.Operation `json:"operation"`
	StartedAt   time.Time         `json:"startedAt"`
	Duration    time.Duration     `json:"durationNs"`
	Stacks      []StackReport     `json:"stacks"`
	// Notes are what the reconcile did to keep going that a person should
	// know, such as starting a new history in place of a damaged one.
	Notes []string `json:"notes,omitempty"`
}

// StackReport is what one stack did.
type StackReport struct {
	Stack string `json:"stack"`
	Layer string `json:"layer"`
	// Constraint is the version the repository asks for; Version, Digest
	// and Origin what it resolved to.
	Constraint string          `json:"constraint,omitempty"`
	Version    string          `json:"version,omitempty"`
	Digest     string          `json:"digest,omitempty"`
	Origin     string          `json:"origin,omitempty"`
	Result     history.Result  `json:"result"`
	Cause      string          `json:"cause,omitempty"`
	Why        string          `json:"why,omitempty"`
	Run        int             `json:"run,omitempty"`
	Summary    history.Summary `json:"summary"`
	Changes    []string        `json:"changes,omitempty"`
	Contract   string          `json:"contract,omitempty"`
	// Outputs are the stack's root outputs once its plan is applied, when
	// the run planned changes (history.Run's Outputs).
	Outputs []string `json:"outputs,omitempty"`
	// Inventory are the resources the apply left, when the stack asks
	// for them (history.Run's Inventory).
	Inventory []history.Resource `json:"inventory,omitempty"`
	// HealthCheck is what the stack's health checks found after the run
	// (history.Run's HealthCheck); one that failed fails the report,
	// though the apply stands.
	HealthCheck *history.HealthCheck `json:"healthCheck,omitempty"`
	// Lock is the state lock the run released or failed on (history.Run's
	// Lock).
	Lock *history.StateLock `json:"lock,omitempty"`
	// DriftText is the drift plan as tofu show prints it, when the run
	// was asked for it (runner.Result's DriftText).
	DriftText string `json:"driftText,omitempty"`
	// FetchFailed: the stack's code could not be fetched, and nothing of
	// it ran (runner.Result's FetchFailed).
	FetchFailed bool `json:"fetchFailed,omitempty"`
	// Webhook is the post-planning webhook that refused the plan, for a
	// stack that failed so (history.Run's Webhook).
	Webhook string `json:"webhook,omitempty"`
	Message string `json:"message,omitempty"`
	// Inputs is set on a stack (or a Kustomization) that waits for what
	// lives in the cluster or is fetched there (--inputs, --kubeconfig):
	// unlike a wait for an upstream contract, the next run does not end
	// it by itself.
	Inputs bool `json:"waitingForInputs,omitempty"`
	// PlanID and Policy are set for a plan with changes.
	PlanID string        `json:"planId,omitempty"`
	Policy *PolicyReport `json:"policy,omitempty"`
	// Contract is what the plan does to the stack's contract: keys
	// removed, changed, moved and added, and the consumers it breaks.
	ContractChange *policy.Contract `json:"contractChange,omitempty"`
	// ContractValues are the keys of the contract ("public.vpc_id") whose
	// value the plan changes, or only knows after apply.
	ContractValues []string `json:"contractValues,omitempty"`
	// Downstream are the stacks that will re-plan, with cause upstream,
	// once this stack's plan is applied: those that read keys it changes,
	// and theirs in turn.
	Downstream []Upstream `json:"downstream,omitempty"`
	// Upstream says, for a stack that will re-plan once an upstream plan
	// is applied, after which stack and because of which keys. Its own
	// plan ran against the contracts published now, so its result is not
	// the last word.
	Upstream []Upstream `json:"upstream,omitempty"`

	// direct are the consumers the runner found re-planning.
	direct []runner.Downstream
}

// Upstream is one stack that will re-plan because of another's plan.
type Upstream struct {
	// Stack re-plans after Producer applies, because it reads Keys
	// ("public.vpc_id") of Contract that change.
	Stack    string   `json:"stack"`
	Producer string   `json:"producer"`
	Contract string   `json:"contract"`
	Keys     []string `json:"keys"`
	// Known is true when the producer's plan knows the keys' new values;
	// false when they are only known after it applies (and for a stack
	// further down, whose upstream has yet to re-plan itself).
	Known bool `json:"known"`
}

// Ready reports whether every stack is ready (history.Result.Ready):
// converged, or waiting on an upstream by design. It is /readyz's answer.
func (r *Report) Ready() bool {
	return r.all(history.Result.Ready)
}

// Converged reports whether every stack is converged
// (history.Result.Converged): nothing waits for a person, a fix or an
// upstream.
func (r *Report) Converged() bool {
	return r.all(history.Result.Converged) && !r.unhealthy()
}

// Failed reports whether any stack failed or was skipped
// (history.Result.Failed), or failed its health checks.
func (r *Report) Failed() bool {
	return !r.all(func(res history.Result) bool { return !res.Failed() }) || r.unhealthy()
}

// unhealthy reports whether a stack's health checks failed.
func (r *Report) unhealthy() bool {
	return slices.ContainsFunc(r.Stacks, func(s StackReport) bool { return s.HealthCheck != nil && !s.HealthCheck.Passed() })
}

// WaitingForInputs reports whether a stack, or a Kustomization of stacks,
// waits for what only the cluster holds (Blocked.Waiting).
func (r *Report) WaitingForInputs() bool {
	return slices.ContainsFunc(r.Stacks, func(s StackReport) bool { return s.Inputs })
}

// Held reports whether any stack's plan is held for a person's approval.
func (r *Report) Held() bool {
	return !r.all(func(res history.Result) bool { return res != history.ResultHeld })
}

func (r *Report) all(ok func(history.Result) bool) bool {
	for _, s := range r.Stacks {
		if !ok(s.Result) {
			return false
		}
	}
	return true
}

// Count returns how many stacks ended with each result.
func (r *Report) Count() map[history.Result]int {
	m := map[history.Result]int{}
	for _, s := range r.Stacks {
		m[s.Result]++
	}
	return m
}

// Line is the reconcile's one-line summary.
func (r *Report) Line() string {
	counts := r.Count()
	var parts []string
	for _, res := range history.Results {
		if n := counts[res]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, res))
		}
	}
	return fmt.Sprintf("%s %s/%s finished in %s: %s", r.Operation, r.Client, r.Environment,
		roundDuration(r.Duration), strings.Join(parts, ", "))
}

// NotSelected is the message of a stack that a reconcile left out
// because the change under review does not touch it (reconcile's
// Options.Only).
const NotSelected = "not selected: unchanged by the change under review, so not planned"
