// Command benchrepo writes the benchmark's repository: one environment of
// N stacks in the seed's four layers (1% account, 5% network, 10%
// cluster, the rest services), each a Flux Kustomization with a
// kustomization file and a Terraform object of its own, depending on one
// or two stacks of the layer below, and one shared stack code directory
// of five terraform_data resources. It commits it with git, as a user's
// checkout is. -shape writes every stack in one of the shapes users write
// instead (shapes.go: substitution, targetNamespace, patches, components,
// prefixes and labels, a code directory per stack, the seed's layout).
//
//	go run ./.ci/benchrepo -stacks 1000 -out DIR
//	go run ./.ci/benchrepo -stacks 10000 -shape substitutefrom -out DIR
//
// .ci/bench.sh runs it for the reconcile benchmark and for the load curve
// (100, 1,000 and 10,000 stacks); written in Go, 10,000 stacks take a
// second where a shell loop took most of a minute.
package main
