// Package validate checks an environment as a whole before anything runs:
// it loads it (package flux), checks that no other environment of the
// repository shares its identity, and builds its graph (package graph)
// from dependsOn and from the contracts stacks read, in layers, without
// cycles.
//
// In: an environment's directory in a checkout (Environment, or Cached,
// which keeps the render in the state directory), or an environment
// strata controller built from a namespace (Graph). Out: the environment,
// its graph, and a diag.Problems of every problem found at once: the
// loader's and the graph's together. A problem holds back only what it
// touches (a cycle, the stacks in it), as Flux holds back a Kustomization
// that fails; WithWaiting adds the stacks that wait for inputs. Nodes
// are the graph's view of the stacks; LogWarnings and LogDeprecations
// write what the load warned of to a run log.
//
// The pipeline (package reconcile) loads with Cached as its first step;
// strata validate, graph, status and the web view use Environment.
package validate
