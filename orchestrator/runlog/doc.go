// Package runlog writes strata's user-facing run logs in the seed's format:
//
//	INFO [network] run #1 started {"operation": "apply", "mode": "auto", "version": "0.2.0"}
//	INFO [network] plan: create terraform_data.vpc
//	INFO [network] run #1 finished in 3.7s: the infrastructure is up to date
//
// It is a log/slog handler: the level, the stack in brackets (from the
// "stack" attribute), the message, then any other attributes as one JSON
// object.
//
// Files keeps each run's lines apart as well, one file per run, from the
// lines that carry the run's number (RunKey), which Handler does not
// print.
package runlog
