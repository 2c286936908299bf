package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/approval"
)

func newApproveCommand(g *globals) *cobra.Command {
	var reason, by string
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
in the state directory (held/<client>/<env>/<stack>/<plan id>/summary.md).`,
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
			a, err := recordApproval(cmd.Context(), envDir, g.stateDir, stack, id, approver(by), reason)
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
	return cmd
}

// recordApproval records a person's approval of one held plan of a stack
// in the state directory: `strata approve` and the web view of `strata
// serve` both approve through it. An id that is not held is refused, with
// the plans that are.
func recordApproval(ctx context.Context, envDir, stateDir, stack, id, by, reason string) (approval.Approval, error) {
	env, _, err := orchestrator.Validate(ctx, envDir)
	if err != nil {
		return approval.Approval{}, err
	}
	if env.Stack(stack) == nil {
		return approval.Approval{}, fmt.Errorf("approve: environment %s has no stack %q", envDir, stack)
	}
	st, err := orchestrator.OpenStores(ctx, env, stateDir)
	if err != nil {
		return approval.Approval{}, err
	}
	defer st.Close()
	a := approval.Approval{
		Client: env.Client, Env: env.Name, Stack: stack, PlanID: id,
		By: by, Reason: reason, ApprovedAt: time.Now().UTC(),
	}
	if err := st.Approvals.Approve(ctx, a); err != nil {
		if errors.Is(err, approval.ErrNoHeldPlan) {
			return approval.Approval{}, fmt.Errorf("%w%s", err, heldList(ctx, st, env.Client, env.Name, stack))
		}
		return approval.Approval{}, err
	}
	return a, nil
}

// heldList names the stack's held plans, for an approval of an id that is
// not held.
func heldList(ctx context.Context, st *orchestrator.Stores, client, env, stack string) string {
	held, err := st.Approvals.HeldPlans(ctx, client, env, stack)
	if err != nil || len(held) == 0 {
		return fmt.Sprintf("; stack %s has no held plan", stack)
	}
	ids := make([]string, 0, len(held))
	for _, h := range held {
		ids = append(ids, fmt.Sprintf("%s (held %s: %s)", h.PlanID, h.HeldAt.Format(time.DateTime), h.Reason))
	}
	return fmt.Sprintf("; held plans of stack %s: %s", stack, strings.Join(ids, "; "))
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
