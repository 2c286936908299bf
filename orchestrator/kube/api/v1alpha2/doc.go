// Package v1alpha2 holds the Go types of the Tofu Controller's Terraform
// object (infra.contrib.fluxcd.io/v1alpha2): its spec as Flux users write
// it and its status as the Tofu Controller writes it, so that
// `strata controller` reads and writes the same objects and `kubectl get
// terraform` shows the same columns.
//
// The types carry kubebuilder markers. `make crd` runs controller-gen over
// them to write zz_generated.deepcopy.go and the CustomResourceDefinition
// in flux-apps/strata/crd/; a test fails when either is stale.
//
// Every field of TerraformSpec has a rule in package tofucontroller's
// fields.go (honoured, or refused with a reason); a test keeps the two in
// step.
//
// +kubebuilder:object:generate=true
// +groupName=infra.contrib.fluxcd.io
package v1alpha2
