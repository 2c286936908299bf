// Package k8stest gives cluster-mode tests (build tag k8s) the real
// single-node cluster that `make test-k8s` starts: its admin kubeconfig, a
// client, a fresh namespace per test, and a way to load an image tarball
// into the node's containerd, strata's own image built from the checkout
// (StrataImage), and what runner pods need in a namespace, taken from the
// manifests (RunnerAccount: the seed's PriorityClass, the tf-runner
// service account and its Role).
package k8stest
