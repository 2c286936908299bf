// Package orchestrator is strata's engine. Its code is in its
// subpackages: the pipeline, package reconcile, which runs one reconcile
// of one environment as a list of steps, and the rooms it walks through,
// one concept each (flux renders a repository, environment is the model,
// graph, source, scheduler, runner, tofu, history, records, ...). The
// drivers sit beside them, daemon (the loop) and controller (cluster
// mode): each takes the pipeline through an interface of its own, which
// the command fills with reconcile.Pipeline, so that nothing here
// imports the pipeline.
//
// docs/architecture.md draws the pipeline and its rooms, with a line per
// package; internal/layout's test keeps that shape.
package orchestrator
