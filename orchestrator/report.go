package orchestrator

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
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
	Message    string          `json:"message,omitempty"`
	// PlanID and Policy are set for a plan with changes.
	PlanID string        `json:"planId,omitempty"`
	Policy *PolicyReport `json:"policy,omitempty"`
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

// Ready reports whether every stack is ready (history.Result.Ready):
// converged, or waiting on an upstream by design. It is /readyz's answer.
func (r *Report) Ready() bool {
	return r.all(history.Result.Ready)
}

// Converged reports whether every stack is converged
// (history.Result.Converged): nothing waits for a person, a fix or an
// upstream.
func (r *Report) Converged() bool {
	return r.all(history.Result.Converged)
}

// Failed reports whether any stack failed or was skipped
// (history.Result.Failed).
func (r *Report) Failed() bool {
	return !r.all(func(res history.Result) bool { return !res.Failed() })
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

// report puts together what every stack did, as the runner (or, for a
// stack it did not run, notRun) decided it: it decides nothing itself.
func report(env *environment.Environment, g *graph.Graph, op history.Operation, arts map[string]resolved, results, removals map[string]runner.Result, started time.Time) *Report {
	rep := &Report{
		Client: env.Client, Environment: env.Name, Class: env.Class,
		Operation: op, StartedAt: started.UTC(), Duration: time.Since(started),
	}
	for _, name := range g.Order() {
		a := arts[name].source
		sr := stackReport(name, results[name])
		sr.Layer, sr.Constraint, sr.Version, sr.Digest, sr.Origin = env.Stack(name).Layer.String(), a.Constraint, a.Version, a.Digest, a.Origin
		rep.Stacks = append(rep.Stacks, sr)
	}
	for _, name := range slices.Sorted(maps.Keys(removals)) {
		sr := stackReport(name, removals[name])
		sr.Layer, sr.Cause = "(removed)", runner.CauseRemoved
		rep.Stacks = append(rep.Stacks, sr)
	}
	return rep
}

// stackReport is what the runner says one stack did.
func stackReport(name string, res runner.Result) StackReport {
	return StackReport{
		Stack:   name,
		Result:  res.Run.Result,
		Cause:   res.Run.Cause,
		Why:     res.Why,
		Run:     res.Run.Number,
		Summary: res.Run.Summary,
		Changes: res.Changes, Contract: res.Run.Contract,
		Message: res.Message,
		PlanID:  res.Run.PlanID,
		Policy:  policyReport(res.Review),
	}
}

func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}
