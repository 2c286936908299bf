// Package web is the web view of strata for the people who run it: the
// fleet of client environments and the versions they run, each
// environment's stack graph, each stack's runs with their logs, plan
// review and contract, and the plans held for approval, with a form to
// approve them.
//
// Pages are rendered on the server with html/template from the state
// directory (history, held plans, run logs, contracts) and, under
// `strata reconcile`, from the loop's last report of each environment.
// Assets are embedded; there is no build step. Every page works without
// JavaScript; the one script only adds live updates, over Server-Sent
// Events, while a reconcile runs: the run log lines as they are written,
// and a refresh of the page when a reconcile starts or ends.
//
// Access: a person logs in with the status token, which lets them read
// every page, or with the approver token, which also lets them approve
// (when only one token is configured, it does both; with none, every page
// answers 403). The token is kept in an HttpOnly, SameSite=Strict cookie.
// Every POST form carries a CSRF token, equal to a cookie of its own
// (double submit), and cross-origin POSTs are refused. Every response
// carries a strict Content-Security-Policy: no inline script or style.
//
// Nothing served holds a private contract value or a sensitive output: a
// contract shows its public values and only the number of its private
// ones, and run logs are the run log lines, which never hold them.
//
// The history is one bbolt file that a running reconcile holds. The view
// opens it read only for each page; while a reconcile holds it, the view
// reads the snapshot the reconcile made when it began, and says so.
//
// Routes:
//
//	GET  /                          the fleet matrix (?client=&class=&result=)
//	GET  /env/{client}/{env}        the environment's layered graph
//	GET  /stack/{client}/{env}/{stack}  runs (?run=N for its log), plan review, contract
//	GET  /held                      every held plan, with an Approve form
//	POST /held/approve              approve one held plan (approver)
//	GET  /login, POST /login, POST /logout
//	GET  /events                    Server-Sent Events while a reconcile runs
//	GET  /static/...                the embedded stylesheet and script
package web
