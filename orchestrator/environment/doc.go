// Package environment is the model of one environment that strata
// reconciles, and its settings.
//
// In: nothing but what a loader fills in. Package flux renders a Flux
// repository (or a cluster's namespace) and builds an Environment from it;
// nothing here reads a file.
//
// Out: the types every later step reads.
//   - model.go: the Environment, its Stacks in layers, each Stack's Run
//     fields (vars, contracts read and written, source, runner settings),
//     and the source kinds a stack's code comes from.
//   - blocked.go: what a problem holds back (Blocked), as Flux holds back a
//     Kustomization that fails and everything that depends on it, and
//     AllProblems, the whole list that validate --strict refuses.
//   - settings.go: strata's own settings, the keys of the init ConfigMap
//     (state backend, contract store, runner limit, provider mirror, IAM
//     allow-list, state directory, retention). ParseSettings reads and
//     checks them once, each bad key a problem with its fix; the command
//     line's Overrides apply with Settings.With.
package environment
