// Package leader decides which of several strata processes leads, through
// a coordination.k8s.io Lease and client-go's leader election.
//
// Every process that shares a state directory names the same Lease
// (namespace and name). One holds it and renews it every RetryPeriod; the
// others retry, and take it over once it has not been renewed for
// LeaseDuration: a leader killed with kill -9 is replaced within
// LeaseDuration plus RetryPeriod. A leader that cannot renew for
// RenewDeadline stops leading.
//
// Lead calls its function once this process leads, with a context that
// ends when the process stops leading or Lead's own context ends. The
// Lease is renewed for as long as that function runs, even after Lead's
// context ended, so that a leader stopping gracefully keeps the Lease until
// its work stopped; then it releases the Lease, and a follower takes over
// at once instead of after LeaseDuration.
//
// The Kubernetes client comes from the kubeconfig file named by
// Config.Kubeconfig, else from the in-cluster configuration (the pod's
// service account). The namespace, when not given, is the kubeconfig
// context's, else the pod's, else "default". The identity of a process is
// its hostname and process id.
//
// The Elector logs each step itself (waits, leads, follows, released, lost);
// client-go's own lines go to the same logger as debug lines, its errors as
// errors.
//
// No client-go type leaves this package: callers see Config, Elector and
// plain strings.
package leader
