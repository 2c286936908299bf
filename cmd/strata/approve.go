package main

import (
	"fmt"
	"os"
	"os/user"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/reconcile"
)

func newApproveCommand(g *globals) *cobra.Command {
	var (
		reason, by string
		rf         recordsFlags
	)
	cmd := &cobra.Command{
		Use:   "approve ENV STACK PLAN_ID",
		Short: "Approve one exact held plan of a stack",
		Long: `approve records a person's approval of a plan that policy held: who,
when and why, in strata's own store under the state directory, never in the
Git repository.

The next apply plans the stack again. If the fresh plan has the same id (the
same resource changes), strata applies the saved, approved plan. If the plan
changed in the meantime, the approval is reported as stale and the new plan
is held for a new approval: an approval can only ever apply what was
reviewed.

A held plan's id, its reasons and its summary are in the apply's output and
in the state directory (held/<client>/<env>/<stack>/<plan id>/summary.md).

A stack that left the environment is approved the same way: its removal
(destroy) plan is held like any other. Approving opens neither the history
nor the contract store, so it works while 'strata reconcile' runs.

With --kubeconfig or --namespace, the plan is one a cluster holds (strata
controller and its runner pods), and the approval is recorded there; with
--records s3://bucket/prefix, one an S3 bucket holds, and the approval is
recorded in the bucket, for the next apply of any machine to apply.`,
		Example: `  strata approve environments/demo/dev network plan-3f2a9c1b7d4e --reason "planned subnet migration, CHG-1234"`,
		Args:    cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			envDir, stack, id := args[0], args[1], args[2]
			if strings.TrimSpace(reason) == "" {
				return &exitError{code: 2, msg: "approve: --reason is required: say why this plan may be applied"}
			}
			recs, err := rf.records(cmd)
			if err != nil {
				return err
			}
			a, err := reconcile.Approve(cmd.Context(), envDir, approval.Request{
				Stack: stack, PlanID: id, Reason: reason, By: approver(by),
			}, reconcile.Options{StateDir: g.stateDir, Records: recs})
			if err != nil {
				return err
			}
			if g.output == "json" {
				return writeJSON(g.stdout, a)
			}
			fmt.Fprintf(g.stdout, "approved plan %s of stack %s by %s: %s\n", id, stack, a.By, reason)
			fmt.Fprintf(g.stdout, "the next apply of %s applies it if a fresh plan still has this id\n", envDir)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why this plan may be applied (required)")
	cmd.Flags().StringVar(&by, "by", "", "who approves (default: $STRATA_USER, then the login name)")
	rf.register(cmd)
	return cmd
}

func approver(flag string) string {
	if flag != "" {
		return flag
	}
	if u := os.Getenv("STRATA_USER"); u != "" {
		return u
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}
