// Package shard says which objects one strata controller reconciles when a
// cluster's Terraform objects are split between several, as Flux splits
// its controllers: each is started with a label selector
// (--watch-label-selector) over the objects' labels, conventionally the
// sharding.fluxcd.io/key label.
//
// In: the selector as the flag gives it. Out: a Shard, which
//   - matches the labels of Terraform objects and Flux sources;
//   - has a name ("" for the default shard, !sharding.fluxcd.io/key), which
//     names the shard's Lease and labels the runner Jobs it starts
//     (JobLabel), so that each shard counts and cleans only its own Jobs;
//   - describes an object's labels that put it in another shard, for
//     errors.
//
// No apimachinery type leaves the package: callers hand it strings and
// label maps.
package shard
