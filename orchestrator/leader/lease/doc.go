// Package lease holds the defaults of the Kubernetes Lease strata's
// leader election holds: its name and timings. The command line shows
// them in its flags' help without linking the Kubernetes client that
// package leader holds the Lease with.
package lease
