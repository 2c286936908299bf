package validate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/graph"
)

// LogWarnings logs, one WARN line each, what a load found that holds back
// no stack: its warnings, then kustomize's deprecation warnings
// (LogDeprecations).
func LogWarnings(log *slog.Logger, env *environment.Environment) {
	for _, p := range env.Warnings {
		log.Warn("warning: " + p.String())
	}
	LogDeprecations(log, env)
}

// LogDeprecations logs kustomize's warnings of deprecated fields, one WARN
// line each naming its kustomization file. kustomize would print them on
// the process's stderr; strata keeps them from it (and from stdout, which
// may be JSON) and says them through its log instead.
func LogDeprecations(log *slog.Logger, env *environment.Environment) {
	for _, p := range env.Deprecations {
		log.Warn("warning: " + p.String())
	}
}

// Environment loads an environment, checks that no other environment of the
// repository shares its identity (clientId and environment), and builds
// its graph: every check that runs before anything runs. The error is a
// diag.Problems listing every problem found.
func Environment(ctx context.Context, dir string) (*environment.Environment, *graph.Graph, error) {
	return validate(ctx, dir, flux.Load)
}

// Cached is Environment with the rendered environment kept in the
// state directory (flux.LoadCached; "" is the repository's own):
// what a reconcile, which writes there anyway, loads with.
func Cached(ctx context.Context, dir, stateDir string) (*environment.Environment, *graph.Graph, error) {
	return validate(ctx, dir, func(ctx context.Context, dir string) (*environment.Environment, error) {
		return flux.LoadCached(ctx, dir, stateDir)
	})
}

func validate(ctx context.Context, dir string, load func(context.Context, string) (*environment.Environment, error)) (*environment.Environment, *graph.Graph, error) {
	env, err := load(ctx, dir)
	var problems diag.Problems
	if err != nil && (env == nil || !errors.As(err, &problems)) {
		return nil, nil, err
	}
	// Even when loading found problems, the graph's own checks (cycles,
	// layers) run on what did load, so that every problem is reported at
	// once. Edges to stacks that did not load were reported by the loader.
	ids, err := flux.CheckIdentity(env)
	if err != nil {
		return nil, nil, err
	}
	problems = append(problems, ids...)
	g, gp := graph.Build(knownEdges(Nodes(env)))
	for len(gp) > 0 && len(problems) == 0 && blockGraphProblems(env, gp) {
		// The stacks of a cycle or a dependency on a higher layer are
		// held back with their dependents, as a problem of their own; the
		// rest of the graph is built again without them.
		g, gp = graph.Build(knownEdges(Nodes(env)))
	}
	problems = append(problems, gp...)
	if len(problems) > 0 {
		problems.Sort()
		return env, nil, problems
	}
	return env, g, nil
}

// WithWaiting returns the graph g of an environment with the stacks that
// wait only for inputs from the cluster put in their places, marked as
// waiting with the inputs they need: what `graph` shows. A waiting stack
// never runs, so the graph reconciles and schedules is g itself. When the
// waiting stacks cannot be placed (their edges would make a cycle), g is
// returned as it is.
func WithWaiting(env *environment.Environment, g *graph.Graph) *graph.Graph {
	waiting := env.Waiting()
	if len(waiting) == 0 || g == nil {
		return g
	}
	inputs := map[string][]string{}
	for _, b := range env.Blocked {
		if b.Waiting && b.Held != nil {
			inputs[b.Held.Name] = b.WaitingFor()
		}
	}
	all := *env
	all.Stacks = append(slices.Clone(env.Stacks), waiting...)
	nodes := knownEdges(Nodes(&all))
	for i := range nodes {
		nodes[i].Waiting = inputs[nodes[i].Name]
	}
	full, ps := graph.Build(nodes)
	if len(ps) > 0 {
		return g
	}
	return full
}

// knownEdges drops the edges to stacks that are not among nodes.
func knownEdges(nodes []graph.Node) []graph.Node {
	known := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		known[n.Name] = true
	}
	for i, n := range nodes {
		deps := n.Deps[:0:0]
		for _, e := range n.Deps {
			if known[e.To] {
				deps = append(deps, e)
			}
		}
		nodes[i].Deps = deps
	}
	return nodes
}

// Nodes turns an environment's stacks into graph nodes. A stack depends on
// the stacks it names in dependsOn and on the producer of every contract it
// reads.
func Nodes(env *environment.Environment) []graph.Node {
	nodes := make([]graph.Node, 0, len(env.Stacks))
	for _, s := range env.Stacks {
		n := graph.Node{Name: s.Name, File: s.File, Layer: int(s.Layer), LayerName: s.Layer.String()}
		for _, d := range s.DependsOn {
			n.Deps = append(n.Deps, graph.Edge{To: d, Why: "dependsOn"})
		}
		for _, c := range s.ContractsRead() {
			if p := env.Producer(c); p != nil {
				n.Deps = append(n.Deps, graph.Edge{To: p.Name, Why: fmt.Sprintf("reads contract %s", c)})
			}
		}
		for _, m := range s.ConsumesMatching {
			for _, p := range env.Stacks {
				if p != s && p.Produces != "" && m.Matches(p.Produces) {
					n.Deps = append(n.Deps, graph.Edge{To: p.Name, Why: fmt.Sprintf("reads contract %s (matches %s)", p.Produces, m.Regex)})
				}
			}
		}
		nodes = append(nodes, n)
	}
	return nodes
}

// blockGraphProblems moves the stacks that the graph's problems name, and
// every stack that depends on one of them, from env.Stacks to env.Blocked.
// It reports false when a problem names no stack of the environment, which
// then stays a problem of the whole environment.
func blockGraphProblems(env *environment.Environment, gp diag.Problems) bool {
	byStack := map[string]diag.Problems{}
	for _, p := range gp {
		name, ok := strings.CutPrefix(p.Object, "Terraform/")
		if !ok || env.Stack(name) == nil {
			return false
		}
		byStack[name] = append(byStack[name], p)
	}
	why := map[string]string{}
	for name, ps := range byStack {
		why[name] = ps[0].Message
	}
	nodes := Nodes(env)
	for changed := true; changed; {
		changed = false
		for _, n := range nodes {
			if _, ok := why[n.Name]; ok {
				continue
			}
			for _, e := range n.Deps {
				if _, ok := why[e.To]; ok {
					why[n.Name] = fmt.Sprintf("it depends on stack %s (%s), which is blocked: %s", e.To, e.Why, why[e.To])
					byStack[n.Name] = byStack[e.To]
					changed = true
					break
				}
			}
		}
	}
	kept := env.Stacks[:0]
	for _, s := range env.Stacks {
		r, ok := why[s.Name]
		if !ok {
			kept = append(kept, s)
			continue
		}
		env.Blocked = append(env.Blocked, environment.Blocked{
			Stack: s.Name, File: s.File, Kustomization: s.Kustomization, KustomizationFile: s.KustomizationFile,
			Reason: r, Problems: byStack[s.Name],
		})
	}
	env.Stacks = kept
	return true
}

// Graph builds the graph of an environment that loaded without problems,
// with the graph's checks that Environment makes: no cycle, no edge to a
// higher layer.
func Graph(env *environment.Environment) (*graph.Graph, error) {
	g, problems := graph.Build(knownEdges(Nodes(env)))
	if len(problems) > 0 {
		problems.Sort()
		return nil, problems
	}
	return g, nil
}
