package main

import (
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// envAPIToken holds the API token when --token-file is not given.
const envAPIToken = "STRATA_API_TOKEN"

func newReconcileCommand(g *globals) *cobra.Command {
	f := &runFlags{}
	lf := &leaderFlags{}
	rf := &recordsFlags{}
	var (
		interval          time.Duration
		listen            string
		tokenFile         string
		approverTokenFile string
	)
	cmd := &cobra.Command{
		Use:   "reconcile ENV [ENV...]",
		Short: "Keep environments applied in a loop, and serve health, readiness, metrics and an API",
		Long: `reconcile runs the reconcile loop: it applies every environment, as
'strata apply' does, once at start and then --interval after the previous
pass ended. The environments of a pass run side by side and share one limit
of --max-runners tofu processes (default 2 per CPU, at most 10): those with
stacks ready take runners in turn, so none starves the others, and each
keeps to its own init key maxRunners too. The run log goes to stdout. An
environment that cannot be reconciled (it is invalid, its state cannot be
read) is logged with its problems and tried again on the next pass; the
others go on.

It serves over HTTP on --listen (loopback by default):

  GET  /                   the web view: the fleet, each environment's graph,
                           each stack's runs and logs, and the held plans with
                           an Approve form; live updates while a reconcile
                           runs. Log in with the token to read, with the
                           --approver-token-file token to approve (the same
                           token does both when only one is configured).
  GET  /healthz            200 "ok" while the process runs
  GET  /readyz             200 when every environment's last reconcile ran
                           and every stack is applied, planned, no-changes,
                           unchanged, or waiting on an upstream contract (by
                           design: the next reconcile retries); otherwise 503
                           with one line per stack that is not ready and why,
                           and before the first reconcile finished 503 "first
                           reconcile not finished". A held plan is NOT ready:
                           it waits for a person, and the line says which plan
                           to approve.
  GET  /metrics            Prometheus metrics
  GET  /api/v1/status      each environment's last report, its error (with
                           problems), when it last ran and runs next
  POST /api/v1/reconcile   start a pass now
  POST /api/v1/approve     approve a held plan as 'strata approve' does, then
                           start a pass; body: {"environment": "environments/
                           demo/dev" or "demo/dev", "stack": "...", "planId":
                           "...", "reason": "...", "by": "..."}

The /api endpoints need "Authorization: Bearer <token>", the token read from
--token-file or $` + envAPIToken + `; POST /api/v1/approve needs the token of
--approver-token-file instead, when one is given. Without a token they answer
403; health, readiness and metrics stay open.

Metrics:

  strata_reconcile_total{client,environment,result="ok|error"}
      reconciles; error when the environment could not be reconciled at all
  strata_reconcile_duration_seconds{client,environment}    histogram
  strata_stack_runs_total{client,environment,stack,result}
      each stack's result, once per reconcile (unchanged included)
  strata_stack_last_result{client,environment,stack,result}
      one series per possible result: 1 for the stack's current result, 0
      for the others (alert on strata_stack_last_result{result="failed"} == 1)
  strata_stack_changes{client,environment,stack,kind="add|change|destroy"}
      resource changes of the stack's last reconcile
  strata_ready       1 when /readyz answers 200, else 0

Replicas: with --leader-elect, several 'strata reconcile' processes can share
one state directory. Only the one that holds the Kubernetes Lease
(--leader-elect-namespace/--leader-elect-name, in the cluster of --kubeconfig
or the one strata runs in) runs passes; the others serve everything else,
answer /readyz with 503 "not the leader (leader: HOST_PID)", and take the
Lease over once the leader is gone: at once when it stopped, within
--leader-elect-lease-duration when it died. A leader that cannot renew the
Lease within --leader-elect-renew-deadline stops as on SIGTERM, then exits 1.

With --records s3://bucket/prefix, the history, held plans and approvals
are kept in that S3 bucket instead of the state directory.

SIGINT or SIGTERM stops scheduling new work. A running reconcile's tofu
processes are interrupted gracefully (SIGINT) and their runs recorded; the
HTTP server stops after the loop, and the exit code is 0.`,
		Example: `  strata reconcile environments/demo/dev --interval 5m
  strata reconcile environments/demo/dev environments/demo/prod --listen 127.0.0.1:9090 --token-file /run/secrets/strata-api
  curl -s -H "Authorization: Bearer $(cat /run/secrets/strata-api)" http://127.0.0.1:9090/api/v1/status`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text"); err != nil {
				return err
			}
			if interval <= 0 {
				return &exitError{code: 2, msg: fmt.Sprintf("reconcile: --interval must be positive, not %s", interval)}
			}
			token, err := apiToken(tokenFile)
			if err != nil {
				return err
			}
			approverToken, err := readTokenFile("reconcile", "--approver-token-file", approverTokenFile)
			if err != nil {
				return err
			}
			if err := f.check(cmd); err != nil {
				return err
			}
			if err := rf.check(); err != nil {
				return err
			}
			if err := lf.check(cmd); err != nil {
				return err
			}
			bin, err := tofu.Find(f.tofu)
			if err != nil {
				return err
			}
			log := g.logger()
			opts := f.options(cmd, g, bin, log)
			opts.RetryWait = true
			held, done, err := recordsDir(rf, "strata-held-")
			if err != nil {
				return err
			}
			defer done()
			if opts.Records, err = rf.leaderRecords(cmd.Context(), held); err != nil {
				return err
			}
			cfg := daemon.Config{
				Environments:  args,
				Interval:      interval,
				Token:         token,
				WebView:       true,
				ApproverToken: approverToken,
				Logger:        log,
				Pipeline:      reconcile.Pipeline{Options: opts},
			}
			elector, err := lf.elector("reconcile", log)
			if err != nil {
				return err
			}
			if elector != nil {
				cfg.Elector = elector
			}
			d, err := daemon.New(cfg)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return fmt.Errorf("reconcile: listen on %s: %w", listen, err)
			}
			if token == "" {
				log.Warn("no API token configured (--token-file or $" + envAPIToken + "): the /api endpoints answer 403")
			}
			return d.Serve(cmd.Context(), ln)
		},
	}
	cmd.Flags().DurationVar(&interval, "interval", daemon.DefaultInterval, "wait between the end of one pass over the environments and the start of the next")
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:9090", "address to serve health, readiness, metrics and the API on")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "file holding the API's bearer token, also the web view's status token (default: $"+envAPIToken+")")
	cmd.Flags().StringVar(&approverTokenFile, "approver-token-file", "", "file holding the token that approves held plans in the web view (default: the --token-file token)")
	f.register(cmd)
	lf.register(cmd)
	rf.registerLocation(cmd)
	return cmd
}

// apiToken reads the API token from the file, else from the environment.
// A file that is given must hold one.
func apiToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv(envAPIToken)), nil
	}
	return readTokenFile("reconcile", "--token-file", file)
}

// readTokenFile reads a token from the file a flag names; "" when no file
// is given. A file that is given must hold one.
func readTokenFile(command, flag, file string) (string, error) {
	if file == "" {
		return "", nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("%s: read %s: %w", command, flag, err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", &exitError{code: 2, msg: fmt.Sprintf("%s: %s %s is empty", command, flag, file)}
	}
	return token, nil
}
