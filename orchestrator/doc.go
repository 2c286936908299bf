// Package orchestrator is strata's engine: one reconcile of one
// environment, as data flowing through a list of steps.
//
//  1. load: the environment, into a typed model, validated as a whole
//     (package environment);
//  2. graph: dependencies from dependsOn and from contracts, in layers,
//     without cycles (package graph);
//  3. resolve: each stack's source, its version and digest (package
//     source);
//  4. schedule: stacks in graph order with a bounded number of tofu
//     processes (package scheduler), each run by package runner;
//  5. report: what every stack did, as the runner decided it (or, for a
//     stack it did not run, why not: skipped, waiting or failed).
//
// Its subpackages are the parts; this package only wires them in order.
package orchestrator
