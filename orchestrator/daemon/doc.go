// Package daemon keeps environments reconciled: it runs the reconcile
// loop and serves its health, readiness, metrics and API over HTTP.
//
// The loop reconciles every environment (apply) through its Pipeline
// (package reconcile's, handed in by strata reconcile --interval, so that
// the daemon never imports the pipeline), once at start and then each
// interval after the previous pass ended, without jitter. The
// environments of a pass run side by side and share one runner limit
// (the options' MaxRunners, else environment.DefaultRunners()):
// environments with stacks ready take runners in turn, so none starves
// the others, and each also keeps to its own init key maxRunners. The
// last report of each environment, or the
// error that kept it from running (an invalid environment, a state
// directory that cannot be opened), is kept until the next pass replaces
// it. A request over the API starts a pass at once.
//
// With an Elector (package leader), the loop runs only while this process
// leads: replicas on one state directory never run passes together. A
// process that does not lead serves everything and is not ready ("not the
// leader (leader: host_1234)"); one that stops leading stops its reconcile
// as a signal would, and Serve returns an error.
//
// Readiness is what an operator alerts on: every environment's last
// reconcile ran, and every stack ended applied, planned, no-changes,
// unchanged, or waiting on an upstream contract (by design: the next pass
// retries). A held plan is not ready: it waits for a person.
//
// The HTTP handler serves:
//
//	GET  /                   the web view, when Config.WebView (see package web)
//	GET  /healthz            200 "ok" while the process runs
//	GET  /readyz             200, or 503 with one line per stack that is not ready
//	GET  /metrics            Prometheus metrics, from the daemon's own registry
//	GET  /api/v1/status      the last report and error of every environment (token)
//	POST /api/v1/reconcile   start a pass now (token)
//	POST /api/v1/approve     approve a held plan, then start a pass (approver token)
//
// The /api endpoints need "Authorization: Bearer <token>"; without a
// configured token they answer 403. POST /api/v1/approve needs
// Config.ApproverToken instead, when one is configured. The web view reads
// with the token and approves with Config.ApproverToken (or the token),
// through Approve, as the API does; it is told when a reconcile starts or
// ends, and receives the run log lines, for its live updates. Nothing
// served ever holds a contract's value: reports name contracts, never
// their content.
package daemon
