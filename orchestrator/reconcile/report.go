package reconcile

import (
	"maps"
	"slices"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// report is the reconcile's report: what every stack did, which stacks
// will re-plan because of another's plan, and what repairing the stores
// did. Its line ends the run log.
func (p *pass) report() *report.Report {
	rep := assemble(p.env, p.graph, p.op, p.sources, p.results, p.removals, p.started)
	// The report holds what it needs of every result.
	p.results = nil
	rep.AddUpstreams(p.graph, p.readers, p.env)
	rep.Notes = p.notes
	p.log.Info(rep.Line())
	return rep
}

// assemble puts together what every stack did, as the runner (or, for a
// stack it did not run, notRun) decided it: it decides nothing itself.
func assemble(env *environment.Environment, g *graph.Graph, op history.Operation, arts map[string]resolved, results, removals map[string]runner.Result, started time.Time) *report.Report {
	order := g.Order()
	rep := &report.Report{
		Client: env.Client, Environment: env.Name, Class: env.Class,
		Operation: op, StartedAt: started.UTC(), Duration: time.Since(started),
	}
	if n := len(order) + len(env.Blocked) + len(removals); n > 0 {
		// Grown once: appended to, a fleet's reports were copied a
		// dozen times, two copies live at the last.
		rep.Stacks = make([]report.StackReport, 0, n)
	}
	for _, name := range order {
		a := arts[name].source
		sr := report.Stack(name, results[name])
		sr.Layer, sr.Constraint, sr.Version, sr.Digest, sr.Origin = env.Stack(name).Layer.String(), a.Constraint, a.Version, a.Digest, a.Origin
		rep.Stacks = append(rep.Stacks, sr)
	}
	for _, b := range env.Blocked {
		rep.Stacks = append(rep.Stacks, report.Blocked(b))
	}
	for _, name := range slices.Sorted(maps.Keys(removals)) {
		sr := report.Stack(name, removals[name])
		sr.Layer, sr.Cause = "(removed)", runner.CauseRemoved
		rep.Stacks = append(rep.Stacks, sr)
	}
	return rep
}
