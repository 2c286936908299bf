package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

func newUnlockCommand(g *globals) *cobra.Command {
	var reason, by, tofuFlag string
	cmd := &cobra.Command{
		Use:   "unlock ENV STACK LOCK_ID",
		Short: "Release a stack's stuck state lock, and record who did it",
		Long: `unlock releases the state lock LOCK_ID of a stack, when the process that
took it is gone: a crashed run leaves a lock behind. Runs report such a lock
with its holder, its age and its ID, and name this command.

For an S3 or a custom backend it runs 'tofu force-unlock' in the stack's
workspace. For a local state the lock is the kernel's and ends with its
process; what a crash leaves is the lock's info file, which is removed. A
lock whose ID is not LOCK_ID, or a local lock a live process holds, is
refused. Who released it, and why, is recorded in the stack's history.

With spec.tfstate.forceUnlock: auto on the Terraform object, strata
releases a lock by itself when its holder is provably dead: it was taken
on this host, and no tofu runs in the stack's workspace any more.`,
		Example: `  strata unlock environments/demo/prod network 5d1c2a3e-… --reason "run crashed at 02:14, INC-4411"`,
		Args:    cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			if strings.TrimSpace(reason) == "" {
				return &exitError{code: exitUsage, msg: "unlock: --reason is required: say why the lock may be released"}
			}
			bin, err := tofu.Find(tofuFlag)
			if err != nil {
				return err
			}
			run, err := reconcile.Unlock(cmd.Context(), args[0], args[1], args[2], approver(by), reason,
				reconcile.Options{Tofu: bin, StateDir: g.stateDir, Logger: g.logger()})
			if err != nil {
				return err
			}
			if g.output == "json" {
				return writeJSON(g.stdout, run)
			}
			fmt.Fprintf(g.stdout, "stack %s run #%d: %s\n", args[1], run.Number, run.Note)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why the lock may be released (required)")
	cmd.Flags().StringVar(&by, "by", "", "who releases it (default: $STRATA_USER, then the login name)")
	cmd.Flags().StringVar(&tofuFlag, "tofu", "", "tofu binary (default: $"+tofu.EnvBinary+", then tofu on PATH, then bin/tofu)")
	return cmd
}
