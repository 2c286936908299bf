package report

import (
	"cmp"
	"slices"

	"github.com/strata-iac/strata/orchestrator/consumers"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/history"
)

// AddUpstreams fills in, from each stack's plan, the stacks that will
// re-plan because of it: directly, the consumers that read keys the plan
// changes; then, since such a consumer's own contract is only known once
// it has re-planned, every reader of it in turn, and so on down the graph
// g of env, whose contract readers are readers.
func (rep *Report) AddUpstreams(g *graph.Graph, readers consumers.Index, env *environment.Environment) {
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
