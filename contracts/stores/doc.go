// Package stores opens the contract store an environment asks for, from
// the keys of its init ConfigMap.
//
// It sits above contracts and its store packages (local, ssm, s3), which
// each import contracts, so that choosing among them creates no import
// cycle.
package stores
