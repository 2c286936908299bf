// Package k8stest gives cluster-mode tests (build tag k8s) the real
// single-node cluster that `make test-k8s` starts: its admin kubeconfig, a
// client, a fresh namespace per test, and a way to load an image tarball
// into the node's containerd, strata's own image built from the checkout
// (StrataImage), and what runner pods need in a namespace, taken from the
// manifests (RunnerAccount: the seed's PriorityClass, the tf-runner
// service account and its Role; PriorityClass alone; PriorityClassNamed,
// the same class under a test's own name, deleted after it).
//
// The manifests: Kustomize builds a Kustomize directory with krusty, as
// kustomize-controller does, Overlay writes a kustomization over a base,
// and an Applier applies objects of any kind server-side.
//
// The network: the cluster runs no Service proxy and its API server
// listens on the node's loopback. Pods on the node's network reach it
// there; PodAPIServer forwards a port of the node's address (NodeAddress)
// to it for pods on the pod network, and FreeNodeAddr gives test servers
// an address that both reach.
package k8stest
