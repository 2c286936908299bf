package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/web"
)

func newServeCommand(g *globals) *cobra.Command {
	var (
		listen, tokenFile, approverTokenFile string
		rf                                   recordsFlags
	)
	cmd := &cobra.Command{
		Use:   "serve ENV [ENV...]",
		Short: "Serve the web view of environments' state directory, without reconciling",
		Long: `serve serves the web view that 'strata reconcile' serves, and nothing
else: it runs no reconcile. It shows what the state directory holds for the
environments: the fleet of their stacks with the last run's result and
version, each environment's graph, each stack's runs with their logs and its
contract's public values, and the held plans.

Log in with the token of --token-file (or $` + envAPIToken + `) to read, and
with the token of --approver-token-file to approve a held plan, exactly as
'strata approve' does; the next apply, by whatever process runs it, applies
it. When only one token is configured it does both; with none every page
answers 403.

While a 'strata reconcile' of the same state directory runs, it holds the
history: pages show the history as it was when that reconcile began, and say
so.

With --kubeconfig or --namespace, it shows the history and held plans a
cluster keeps (strata controller and its runner pods), and approvals are
recorded there; with --records s3://bucket/prefix, those an S3 bucket keeps.`,
		Example: `  strata serve environments/demo/dev environments/demo/prod --listen 127.0.0.1:8080 --token-file /run/secrets/strata-read`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text"); err != nil {
				return err
			}
			token, err := readTokenFile("serve", "--token-file", tokenFile)
			if err != nil {
				return err
			}
			if token == "" {
				token = strings.TrimSpace(os.Getenv(envAPIToken))
			}
			approverToken, err := readTokenFile("serve", "--approver-token-file", approverTokenFile)
			if err != nil {
				return err
			}
			// A cluster's held plans are written out here for the pages.
			var held string
			if rf.inCluster(cmd) || rf.location != "" {
				if held, err = os.MkdirTemp("", "strata-held-"); err != nil {
					return fmt.Errorf("serve: %w", err)
				}
				defer os.RemoveAll(held)
			}
			recs, err := rf.recordsIn(cmd, held)
			if err != nil {
				return err
			}
			log := g.logger()
			if token == "" && approverToken == "" {
				log.Warn("no token configured (--token-file, --approver-token-file or $" + envAPIToken + "): every page answers 403")
			}
			w, err := web.New(web.Config{
				Environments: args, StateDir: g.stateDir, Records: recs, ReadToken: token, ApproveToken: approverToken, Logger: log,
				Approve: func(ctx context.Context, a web.Approval) error {
					dir, err := envDirOf(ctx, args, a.Environment)
					if err != nil {
						return err
					}
					_, err = reconcile.Approve(ctx, dir, approval.Request{
						Stack: a.Stack, PlanID: a.PlanID, Reason: a.Reason, By: a.By,
					}, reconcile.Options{StateDir: g.stateDir, Records: recs})
					return err
				},
			})
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return fmt.Errorf("serve: listen on %s: %w", listen, err)
			}
			// Requests load environments with the command's keys.
			base := context.WithoutCancel(cmd.Context())
			srv := &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 10 * time.Second,
				BaseContext: func(net.Listener) context.Context { return base }}
			srv.RegisterOnShutdown(w.Close)
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ln) }()
			log.Info(fmt.Sprintf("serving the web view on http://%s/", ln.Addr()))
			select {
			case err := <-served:
				return fmt.Errorf("serve: %w", err)
			case <-cmd.Context().Done():
			}
			ctx, cancel := context.WithTimeout(context.WithoutCancel(cmd.Context()), 10*time.Second)
			defer cancel()
			if err := srv.Shutdown(ctx); err != nil {
				return fmt.Errorf("serve: shut down: %w", err)
			}
			if err := <-served; !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("serve: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:9090", "address to serve the web view on")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "file holding the status token that lets a person read (default: $"+envAPIToken+")")
	cmd.Flags().StringVar(&approverTokenFile, "approver-token-file", "", "file holding the token that lets a person approve held plans (default: the --token-file token)")
	rf.register(cmd)
	return cmd
}

// envDirOf finds, among the served environment directories, the one whose
// client/env is label.
func envDirOf(ctx context.Context, dirs []string, label string) (string, error) {
	for _, dir := range dirs {
		if env, _ := flux.Load(ctx, dir); env != nil && env.Client+"/"+env.Name == label {
			return dir, nil
		}
	}
	return "", fmt.Errorf("approve: no environment %q is served here", label)
}
