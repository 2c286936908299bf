//go:build kube

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/kube"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runjob"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

func newRunnerCommand(g *globals) *cobra.Command {
	var (
		request, termination, tofuFlag string
		timeout, grace                 time.Duration
		rf                             recordsFlags
	)
	cmd := &cobra.Command{
		Use:   "runner",
		Short: runnerShort,
		Long: `runner runs one stack's run, as strata controller asks for it in a
Kubernetes Job: it reads the run request (JSON) from --request, fetches the
stack's code from its artifact (source-controller's, digest checked), runs the stack through
the same steps as strata apply, and writes the outcome, a short JSON
document, to --termination-log (the pod's termination message).

Its log lines are slog JSON records on stdout, one a line, and the last
line is the whole outcome ({"strataOutcome": …}): the controller reads them
back through the pod's log and writes them in its own log and the run's
history. The exit code is strata apply's: 0 converged, 1
failed, 3 held for approval.

With --namespace (and --kubeconfig outside a pod), the run's history and
held plans are the records that namespace keeps, which the controller and
every other runner pod share; with --records s3://bucket/prefix, those an
S3 bucket keeps; without them they stay in --state-dir, which the pod
loses.

In a pod (or with --kubeconfig) each plan with changes is also written
where the Tofu Controller keeps it: the Secret tfplan-<workspace>-<name> of
the object's namespace, for tfctl and review bots.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if timeout <= 0 {
				return usageError("--timeout is %s: it must be more than 0, such as 10m", timeout)
			}
			if grace <= 0 {
				return usageError("--shutdown-grace is %s: it must be more than 0, such as 20s", grace)
			}
			if g.stateDir == "" {
				return usageError("--state-dir is required: the runner pod's writable directory")
			}
			b, err := os.ReadFile(request)
			if err != nil {
				return fmt.Errorf("read run request: %w", err)
			}
			var req runjob.Request
			if err := json.Unmarshal(b, &req); err != nil {
				return fmt.Errorf("read run request %s: %w", request, err)
			}
			bin, err := tofu.Find(tofuFlag)
			if err != nil {
				return err
			}
			recs, err := rf.recordsIn(cmd, filepath.Join(g.stateDir, "held"))
			if err != nil {
				return err
			}
			rc := runjob.Config{
				Tofu:          bin,
				StateDir:      g.stateDir,
				Logger:        jobs.NewRunnerLogger(g.stdout),
				Timeout:       timeout,
				ShutdownGrace: grace,
				Records:       recs,
			}
			// In a pod (or with --kubeconfig), the run's plan goes to the
			// Secret the Tofu Controller keeps it in; elsewhere nowhere.
			if client, err := kube.New(rf.kubeconfig); err == nil {
				rc.Secrets = client
			}
			res := runjob.Execute(cmd.Context(), req, rc)
			out := res.Outcome
			if err := jobs.WriteOutcome(g.stdout, res); err != nil {
				fmt.Fprintf(g.stderr, "strata: %v\n", err)
			}
			sum := runjob.Summarise(out)
			if termination != "" {
				msg, _ := json.Marshal(sum)
				if err := os.WriteFile(termination, msg, 0o644); err != nil {
					fmt.Fprintf(g.stderr, "strata: write the outcome to %s: %v\n", termination, err)
				}
			}
			switch r := out.Result.Run.Result; {
			case r.Failed():
				return &exitError{code: exitFailed, msg: sum.Message}
			case r == history.ResultHeld:
				return &exitError{code: exitHeld, msg: sum.Message}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&request, "request", jobs.RequestDir+"/"+jobs.RequestKey, "the run request (JSON)")
	cmd.Flags().StringVar(&termination, "termination-log", "/dev/termination-log", "where the outcome goes (empty: nowhere)")
	cmd.Flags().StringVar(&tofuFlag, "tofu", "", "tofu binary (default: $"+tofu.EnvBinary+", then tofu on PATH, then bin/tofu)")
	cmd.Flags().DurationVar(&timeout, "timeout", reconcile.DefaultTimeout, "longest the run may take")
	cmd.Flags().DurationVar(&grace, "shutdown-grace", 20*time.Second,
		"on SIGTERM, how long an apply in flight may go on before tofu is interrupted (below the pod's terminationGracePeriodSeconds)")
	rf.register(cmd)
	return cmd
}
