package approve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// Stores say where an environment's held plans and approvals are kept.
type Stores struct {
	// Settings are the environment's settings with the command line's
	// overrides applied (reconcile.Options.Settings).
	Settings func(env *environment.Environment) (environment.Settings, error)
	// Records keep the held plans and approvals; nil is
	// envstores.FileRecords, the state directory.
	Records envstores.Records
}

// InDir records a person's approval of one held plan of the environment
// in dir; the next apply applies it if a fresh plan still has its id.
//
// It loads and validates the environment, but opens neither the history
// nor the contract store: held plans and approvals are records of their
// own (Stores.Records), so an approval works while a reconcile runs. A
// stack that left the environment can be approved while its removal plan
// is held.
//
// An invalid environment is an error wrapping its diag.Problems; a bad
// request wraps approval.ErrBadApproval; an unknown stack
// approval.ErrUnknownStack; a plan id that is not held
// approval.ErrNoHeldPlan, and the message lists the stack's held plans.
func InDir(ctx context.Context, dir string, req approval.Request, s Stores) (approval.Approval, error) {
	req.Stack = strings.TrimSpace(req.Stack)
	req.PlanID = strings.TrimSpace(req.PlanID)
	req.By = strings.TrimSpace(req.By)
	for _, f := range []struct{ name, value, why string }{
		{"stack", req.Stack, "name the stack whose plan is held"},
		{"planId", req.PlanID, "give the held plan's id"},
		{"reason", strings.TrimSpace(req.Reason), "say why this plan may be applied"},
		{"by", req.By, "say who approves"},
	} {
		if f.value == "" {
			return approval.Approval{}, fmt.Errorf("approve: %w: %s is required: %s", approval.ErrBadApproval, f.name, f.why)
		}
	}
	if err := approval.ValidID(req.PlanID); err != nil {
		return approval.Approval{}, fmt.Errorf("approve: %w: %w", approval.ErrBadApproval, err)
	}
	env, _, err := validate.Environment(ctx, dir)
	if err != nil {
		return approval.Approval{}, fmt.Errorf("approve: environment %s is invalid: %w", dir, err)
	}
	return approve(ctx, env, dir, req, s)
}

// InEnvironment is InDir for an environment already loaded: what strata
// controller builds from a namespace, whose objects' spec.approvePlan
// approve held plans. dir names the environment in messages.
func InEnvironment(ctx context.Context, env *environment.Environment, dir string, req approval.Request, s Stores) (approval.Approval, error) {
	if err := approval.ValidID(strings.TrimSpace(req.PlanID)); err != nil {
		return approval.Approval{}, fmt.Errorf("approve: %w: %w", approval.ErrBadApproval, err)
	}
	return approve(ctx, env, dir, req, s)
}

// approve checks the request against the environment's held plans and
// records it.
func approve(ctx context.Context, env *environment.Environment, dir string, req approval.Request, s Stores) (approval.Approval, error) {
	set, err := s.Settings(env)
	if err != nil {
		return approval.Approval{}, fmt.Errorf("approve: %w", err)
	}
	recs := s.Records
	if recs == nil {
		recs = envstores.FileRecords{}
	}
	store, err := recs.OpenApprovals(ctx, env, set)
	if err != nil {
		return approval.Approval{}, fmt.Errorf("approve: %w", err)
	}
	held, err := store.HeldPlans(ctx, env.Client, env.Name, req.Stack)
	if err != nil {
		return approval.Approval{}, fmt.Errorf("approve: %w", err)
	}
	if env.Stack(req.Stack) == nil && len(held) == 0 {
		return approval.Approval{}, fmt.Errorf("approve: environment %s has no stack %q and no held plan for one: %w", dir, req.Stack, approval.ErrUnknownStack)
	}
	at := req.At
	if at.IsZero() {
		at = time.Now()
	}
	a := approval.Approval{
		Client: env.Client, Env: env.Name, Stack: req.Stack, PlanID: req.PlanID,
		By: req.By, Reason: req.Reason, ApprovedAt: at.UTC(),
	}
	if err := store.Approve(ctx, a); err != nil {
		if errors.Is(err, approval.ErrNoHeldPlan) {
			return approval.Approval{}, fmt.Errorf("%w%s", err, heldList(req.Stack, held))
		}
		return approval.Approval{}, err
	}
	return a, nil
}

// heldList names the stack's held plans, for an approval of an id that is
// not held.
func heldList(stack string, held []approval.Held) string {
	if len(held) == 0 {
		return fmt.Sprintf("; stack %s has no held plan", stack)
	}
	ids := make([]string, 0, len(held))
	for _, h := range held {
		ids = append(ids, fmt.Sprintf("%s (held %s: %s)", h.PlanID, h.HeldAt.Format(time.DateTime), h.Reason))
	}
	return fmt.Sprintf("; held plans of stack %s: %s", stack, strings.Join(ids, "; "))
}
