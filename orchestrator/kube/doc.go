// Package kube is strata controller's client of the Kubernetes API: the
// Terraform objects it reconciles, the Flux sources, ConfigMaps and Secrets
// they read, the output Secrets and Events it writes, the Secret that keeps
// the key of the input hashes (see hashkey), and a watch that says
// when a namespace changed. It implements the small interface package
// controller owns; client-go's types stay inside this package.
//
// Terraform objects are read and written through the dynamic client as
// the types of package api/v1alpha2.
package kube
