// Package environment loads one client environment of a Flux repository
// (environments/<client>/<env>) into a typed model and validates all of it
// before anything runs.
//
// It reads the repository exactly as Flux and the Tofu Controller do: the
// "init" ConfigMap, each group's "_versions.yaml" ("service-versions"
// ConfigMap), the Flux Kustomizations of every group, and the Terraform
// objects (infra.contrib.fluxcd.io/v1alpha2) under the Kustomizations'
// spec.path, with Flux's postBuild variable substitution applied.
//
// strata's own settings (state backend, contract store, runner limit,
// provider mirror, IAM allow-list, state directory) are keys of the init
// ConfigMap. They are named in settings.go, parsed and checked once while
// the environment loads, and kept as Environment.Settings; every bad key is
// a problem with its fix. The command line's Overrides are applied with
// Settings.With. Nothing else reads those keys.
//
// Names are checked as Kubernetes checks them (names.go): object names are
// DNS-1123 subdomains, clientId and environment DNS-1123 labels, so none can
// climb out of or nest inside the state directory. CheckIdentity
// (identity.go) refuses an environment whose clientId and environment
// another environment of the repository also names.
package environment
