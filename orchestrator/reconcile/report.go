package reconcile

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/consumers"
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
	Message    string          `json:"message,omitempty"`
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

// upstreams fills in, from each stack's plan, the stacks that will
// re-plan because of it: directly, the consumers that read keys the plan
// changes; then, since such a consumer's own contract is only known once
// it has re-planned, every reader of it in turn, and so on down the graph.
func upstreams(rep *Report, g *graph.Graph, readers consumers.Index, env *environment.Environment) {
	byStack := map[string]*StackReport{}
	for i := range rep.Stacks {
		byStack[rep.Stacks[i].Stack] = &rep.Stacks[i]
	}
	add := func(root string, u Upstream) {
		target, ok := byStack[u.Stack]
		if !ok {
			return
		}
		same := func(have Upstream) bool {
			return have.Stack == u.Stack && have.Producer == u.Producer && have.Contract == u.Contract
		}
		if !slices.ContainsFunc(target.Upstream, same) {
			target.Upstream = append(target.Upstream, u)
		}
		if !slices.ContainsFunc(byStack[root].Downstream, same) {
			byStack[root].Downstream = append(byStack[root].Downstream, u)
		}
	}
	// roots maps each stack that will re-plan to the stacks whose plans
	// cause it, directly or further up.
	roots := map[string][]string{}
	for _, name := range g.Order() {
		sr := byStack[name]
		if sr == nil {
			continue
		}
		up := roots[name]
		// A plan that was applied has had its consumers re-plan already,
		// in this same reconcile.
		for _, d := range sr.direct {
			if sr.Result == history.ResultApplied {
				break
			}
			u := Upstream{Stack: d.Stack, Producer: name, Contract: d.Contract, Keys: d.Keys, Known: d.Known}
			for _, root := range append([]string{name}, up...) {
				add(root, u)
			}
			roots[d.Stack] = append(roots[d.Stack], append([]string{name}, up...)...)
		}
		// A stack previewed against its upstreams' next contracts listed
		// its own downstream above; one planned against the contracts
		// published now cannot know what its contract will be, so every
		// reader of it re-plans too.
		if len(up) == 0 || !slices.ContainsFunc(sr.Upstream, func(u Upstream) bool { return !u.Known }) {
			continue
		}
		s := env.Stack(name)
		if s == nil || s.Produces == "" {
			continue
		}
		for _, rd := range readers.Readers(s.Produces) {
			var keys []string
			for _, read := range rd.Reads {
				keys = append(keys, cmp.Or(read.Section, "*")+"."+cmp.Or(read.Key, "*"))
			}
			slices.Sort(keys)
			u := Upstream{Stack: rd.Stack, Producer: name, Contract: s.Produces, Keys: slices.Compact(keys)}
			for _, root := range up {
				add(root, u)
			}
			roots[rd.Stack] = append(roots[rd.Stack], up...)
		}
	}
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

// report is the reconcile's report: what every stack did, which stacks
// will re-plan because of another's plan, and what repairing the stores
// did. Its line ends the run log.
func (p *pass) report() *Report {
	rep := report(p.env, p.graph, p.op, p.sources, p.results, p.removals, p.started)
	upstreams(rep, p.graph, p.readers, p.env)
	rep.Notes = p.notes
	p.log.Info(rep.Line())
	return rep
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
	for _, b := range env.Blocked {
		rep.Stacks = append(rep.Stacks, blockedReport(b))
	}
	for _, name := range slices.Sorted(maps.Keys(removals)) {
		sr := stackReport(name, removals[name])
		sr.Layer, sr.Cause = "(removed)", runner.CauseRemoved
		rep.Stacks = append(rep.Stacks, sr)
	}
	return rep
}

// blockedReport is a stack that a problem in its Kustomization's chain
// held back, or one that waits for an input that lives in the cluster:
// neither planned nor applied. A Kustomization that could not be built
// is listed under its own name, in brackets, as what it would bring in
// is not known.
func blockedReport(b environment.Blocked) StackReport {
	sr := StackReport{Stack: b.Name(), Layer: "(blocked)", Result: history.ResultBlocked, Why: b.Reason, Message: b.String()}
	if b.Waiting {
		sr.Layer, sr.Result, sr.Inputs = "(waiting)", history.ResultWaiting, true
	}
	return sr
}

// stackReport is what the runner says one stack did.
func stackReport(name string, res runner.Result) StackReport {
	sr := StackReport{
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
		direct:  res.Downstream,
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
