// Package stores opens the contract store an environment asks for, as its
// settings describe it, and reads many documents from any store.
//
// It sits above contracts and its store packages (local, ssm, s3), which
// each import contracts, so that choosing among them creates no import
// cycle.
package stores
