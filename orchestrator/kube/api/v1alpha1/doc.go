// Package v1alpha1 serves the Tofu Controller's older API version of the
// Terraform object (infra.contrib.fluxcd.io/v1alpha1), deprecated as the
// Tofu Controller deprecates it: its spec and status are those of
// v1alpha2, which is stored. The CustomResourceDefinition converts
// between the two as the Tofu Controller's does (strategy None: the API
// server rewrites the version), so that manifests written for v1alpha1
// still apply, and a cluster whose CRD stored v1alpha1 objects takes
// strata's CRD in its place.
//
// +kubebuilder:object:generate=true
// +groupName=infra.contrib.fluxcd.io
package v1alpha1
