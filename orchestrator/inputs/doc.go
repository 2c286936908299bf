// Package inputs finds the ConfigMaps and Secrets that a repository names
// but does not hold, because they live only in the cluster: made by hand,
// by a bootstrap, or by External Secrets. strata's Git mode reads them
// from manifests on disk (Files, --inputs) or from a cluster (Cluster,
// --kubeconfig), and package flux asks for each by kind,
// namespace and name as a stack or Kustomization needs it.
//
// A Secret's values reach tofu and nothing else: the loader marks every
// Secret read here private.
package inputs
