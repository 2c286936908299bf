// Package environment loads one client environment of a Flux repository
// (environments/<client>/<env>) into a typed model and validates all of it
// before anything runs.
//
// It reads the repository exactly as Flux and the Tofu Controller do: the
// "init" ConfigMap, each group's "_versions.yaml" ("service-versions"
// ConfigMap), the Flux Kustomizations of every group, and the Terraform
// objects (infra.contrib.fluxcd.io/v1alpha2) under the Kustomizations'
// spec.path, with Flux's postBuild variable substitution applied.
package environment
