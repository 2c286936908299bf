// Package celexpr checks and evaluates the CEL expressions of Flux objects
// (a Kustomization's dependsOn readyExpr and healthCheckExprs) as Flux's
// controllers compile them: the same CEL environment, the same variables,
// a boolean result. It wraps github.com/google/cel-go.
package celexpr
