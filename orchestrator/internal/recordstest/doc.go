// Package recordstest is the contract every keeper of strata's records
// meets, as one test body run against each implementation: the state
// directory's (history.Store and approval.Store) and the shared records
// (records.Records, over a cluster's objects in kuberecords and a
// bucket's in s3records). Run it from an implementation's tests with Run.
package recordstest
