package report

import (
	"fmt"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/policy"
)

// Blocked is the report of a stack that a problem in its Kustomization's chain
// held back, or one that waits for an input that lives in the cluster:
// neither planned nor applied. A Kustomization that could not be built
// is listed under its own name, in brackets, as what it would bring in
// is not known.
func Blocked(b environment.Blocked) StackReport {
	sr := StackReport{Stack: b.Name(), Layer: "(blocked)", Result: history.ResultBlocked, Why: b.Reason, Message: b.String()}
	if b.Waiting {
		sr.Layer, sr.Result, sr.Inputs = "(waiting)", history.ResultWaiting, true
	}
	return sr
}

// Stack is the report of what the runner says one stack, name, did.
func Stack(name string, res runner.Result) StackReport {
	sr := StackReport{
		Stack:   name,
		Result:  res.Run.Result,
		Cause:   res.Run.Cause,
		Why:     res.Why,
		Run:     res.Run.Number,
		Summary: res.Run.Summary,
		Changes: res.Changes, Contract: res.Run.Contract, Outputs: res.Run.Outputs, Inventory: res.Run.Inventory,
		HealthCheck: res.Run.HealthCheck,
		Webhook:     res.Run.Webhook,
		Lock:        res.Run.Lock,
		FetchFailed: res.FetchFailed,
		DriftText:   res.DriftText,
		Message:     res.Message,
		PlanID:      res.Run.PlanID,
		Policy:      policyReport(res.Review),
		direct:      res.Downstream,
	}
	if h := res.Run.HealthCheck; h != nil && !h.Passed() {
		sr.Message += fmt.Sprintf("; health check %s failed: %s", h.Failed, h.Message)
	}
	if res.Review != nil {
		sr.ContractChange = res.Review.Contract
		sr.ContractValues = res.ContractChanged
	}
	return sr
}

func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}

// PolicyReport is the policy's word on a stack's plan.
type PolicyReport struct {
	Allowed    bool             `json:"allowed"`
	Denies     []policy.Finding `json:"denies"`
	Warnings   []policy.Finding `json:"warnings"`
	Exceptions []policy.Finding `json:"exceptions,omitempty"`
	Error      string           `json:"error,omitempty"`
}

func policyReport(rv *runner.Review) *PolicyReport {
	if rv == nil {
		return nil
	}
	pr := &PolicyReport{
		Allowed:    !rv.Denied(),
		Denies:     nonNil(rv.Decision.Denies),
		Warnings:   nonNil(rv.Decision.Warnings),
		Exceptions: rv.Decision.Exceptions,
	}
	if rv.Err != nil {
		pr.Error = rv.Err.Error()
	}
	return pr
}

func nonNil(fs []policy.Finding) []policy.Finding {
	if fs == nil {
		return []policy.Finding{}
	}
	return fs
}
