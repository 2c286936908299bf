// Package probe serves the health endpoints the kubelet probes on a
// strata process that serves nothing else (strata controller):
//
//	GET /healthz  200 "ok" while the process runs (the liveness probe)
//	GET /readyz   200 with what the process does, or 503 with why it is
//	              not ready (the readiness probe)
//
// Readiness is a Check, a function the caller gives. Election is the check
// of a process in a leader election: ready once it has read the Lease,
// whether it leads or follows, so that every replica of a Deployment is
// Ready and a follower is there to take over; not ready while it has seen
// no leader, which it cannot have without reaching the API server.
package probe
