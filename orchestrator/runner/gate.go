package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/policy"
)

// Policy judges a plan; *policy.Engine is one.
type Policy interface {
	Eval(ctx context.Context, planJSON []byte, meta policy.Meta) (policy.Decision, error)
}

// FailingPolicy is the policy of a reconcile whose policies could not be
// loaded: it fails every plan, so every plan with changes is held, never
// applied (policies fail closed).
func FailingPolicy(err error) Policy {
	return failingPolicy{fmt.Errorf("policy failed to load: %w", err)}
}

// failingPolicy fails every evaluation with err, which says why there is
// no policy to judge by.
type failingPolicy struct{ err error }

func (p failingPolicy) Eval(context.Context, []byte, policy.Meta) (policy.Decision, error) {
	return policy.Decision{}, &noPolicyError{p.err}
}

// noPolicyError is a failingPolicy's answer: the plan was not judged,
// because there is no policy to judge it by.
type noPolicyError struct{ err error }

func (e *noPolicyError) Error() string { return e.err.Error() }
func (e *noPolicyError) Unwrap() error { return e.err }

// Review is the policy's word on one plan.
type Review struct {
	// PlanID is derived from the plan's resource changes.
	PlanID   string
	Decision policy.Decision
	// Err is set when the policy failed to load or to evaluate: the plan
	// is then held, never applied. It does not encode to JSON: see
	// controller.Outcome, which carries its message.
	Err error `json:"-"`
	// Contract is what the plan does to the stack's contract, and the
	// consumers it breaks; nil when the stack publishes none.
	Contract *policy.Contract
}

// Denied reports whether the plan needs a person: a deny, a policy that
// failed, or a change of contract that breaks a consumer.
func (rv Review) Denied() bool {
	return rv.Err != nil || len(rv.Decision.Denies) > 0 || rv.Contract.Breaks()
}

// review has the policy judge a plan with changes.
func (r *Runner) review(ctx context.Context, st *runState) error {
	if !st.plan.changed {
		return nil
	}
	rv := r.evaluate(ctx, st)
	st.review = &rv
	st.run.PlanID = rv.PlanID
	if rv.Contract.Breaks() {
		// Whatever changed the plan, what needs a person is the break.
		st.cause.name = CauseContractBreak
		st.run.Cause = CauseContractBreak
	}
	if rv.Denied() {
		// A plan that waits for a person publishes nothing yet: its
		// consumers are not previewed against it, and re-plan once a
		// person approved it and it applied.
		st.contract.next = nil
		for i := range st.contract.downstream {
			st.contract.downstream[i].Known = false
		}
	}
	return nil
}

// planned ends a plan operation, or the run of a spec.planOnly stack,
// once its plan with changes is judged (and saved): planned, saying
// whether an apply would hold the plan.
func (r *Runner) planned(_ context.Context, st *runState) error {
	rv := st.review
	if !st.plan.changed || rv == nil {
		return nil
	}
	if st.req.Operation == history.OperationPlan {
		st.run.Result = history.ResultPlanned
		st.message = fmt.Sprintf("plan: %s", st.plan.summaryLine())
		if rv.Denied() {
			st.message += fmt.Sprintf("; plan %s would be held for approval", rv.PlanID)
		}
		st.done = true
		return nil
	}
	if s := st.req.Stack; s.Run.PlanOnly {
		// spec.planOnly: the plan is judged, recorded and shown, and
		// never applied, nor held.
		st.run.Result = history.ResultPlanned
		st.message = fmt.Sprintf("plan only (spec.planOnly of Terraform/%s): plan %s recorded, not applied: %s", s.Name, rv.PlanID, st.plan.summaryLine())
		if rv.Denied() {
			st.message += "; policy would hold it for approval"
		}
		st.done = true
	}
	return nil
}

// evaluate evaluates the plan with the policy and logs every finding.
func (r *Runner) evaluate(ctx context.Context, st *runState) Review {
	req, log := st.req, st.log
	key, err := r.hashKey()
	if err != nil {
		return Review{Err: fmt.Errorf("derive plan id: %w", err), Contract: st.contract.facts}
	}
	id, err := policy.PlanID(key, st.plan.plan.JSON)
	if err != nil {
		return Review{Err: fmt.Errorf("derive plan id: %w", err), Contract: st.contract.facts}
	}
	rv := Review{PlanID: id, Contract: st.contract.facts}
	rv.Decision, rv.Err = r.cfg.Policy.Eval(ctx, st.plan.plan.JSON, policy.Meta{
		Stack:            req.Stack.Name,
		Client:           req.Client,
		Environment:      req.Env,
		EnvironmentClass: req.Class,
		Cause:            st.cause.name,
		FromVersion:      st.prev.ToVersion,
		ToVersion:        req.Artifact.Version,
		Interrupted:      st.interrupted,
		Contract:         st.contract.facts,
	})
	var none *noPolicyError
	if rv.Err != nil && !errors.As(rv.Err, &none) {
		rv.Err = fmt.Errorf("policy failed to evaluate: %w", rv.Err)
	}
	if rv.Err != nil {
		log.Error("policy: " + rv.Err.Error() + "; the plan is held (policies fail closed)")
		return rv
	}
	for _, f := range rv.Decision.Denies {
		log.Warn(fmt.Sprintf("policy: %s denies %s: %s", f.Rule, orPlan(f.Address), f.Message))
	}
	for _, f := range rv.Decision.Warnings {
		log.Warn(fmt.Sprintf("policy: %s warns about %s: %s", f.Rule, orPlan(f.Address), f.Message))
	}
	for _, f := range rv.Decision.Exceptions {
		log.Info(fmt.Sprintf("policy: %s excepted for %s: %s", f.Rule, orPlan(f.Address), f.Message))
	}
	return rv
}

func orPlan(addr string) string {
	if addr == "" {
		return "the plan"
	}
	return addr
}

// gate decides whether a plan with changes may be applied now, and which
// plan file to apply: the fresh one when policy allows it, or the saved
// plan a person approved when the fresh plan has the same id. Otherwise the
// plan is held: kept with its JSON and a summary, and a *HeldError returned.
func (r *Runner) gate(ctx context.Context, st *runState) error {
	if !st.plan.changed {
		return nil
	}
	planFile, release, err := r.decide(ctx, st)
	if err != nil {
		return err
	}
	st.planFile, st.release = planFile, release
	return nil
}

// decide is the gate's decision: the plan file to apply and the approval
// to release once it is applied, or why the plan is held.
func (r *Runner) decide(ctx context.Context, st *runState) (planFile string, release func() error, err error) {
	req, log, ws, p, c, rv := st.req, st.log, st.ws, st.plan, st.cause, *st.review
	s := req.Stack
	var reason string
	lost := lostIn(st.lost, p)
	if len(lost) > 0 {
		st.run.Interrupted = st.lost
		c.name, st.run.Cause = CauseInterrupted, CauseInterrupted
		st.cause.name = CauseInterrupted
	}
	switch {
	case len(lost) > 0:
		reason = lostReason(lost, p)
	case rv.Err != nil:
		reason = rv.Err.Error()
	case len(rv.Decision.Denies) > 0 && rv.Contract.Breaks():
		reason = "denied by policy: " + denials(rv.Decision.Denies) + "; and " + CauseContractBreak + ": " + breaks(rv.Contract)
	case len(rv.Decision.Denies) > 0:
		reason = "denied by policy: " + denials(rv.Decision.Denies)
	case rv.Contract.Breaks():
		reason = CauseContractBreak + ": " + breaks(rv.Contract)
	case s.ApprovePlan == rv.PlanID:
		log.Info(fmt.Sprintf("plan %s is approved by spec.approvePlan of Terraform/%s", rv.PlanID, s.Name))
		return ws.planFile, nil, nil
	case approval.Names(s.ApprovePlan, rv.PlanID):
		log.Info(fmt.Sprintf("plan %s is approved by spec.approvePlan of Terraform/%s, %s, a prefix of its id", rv.PlanID, s.Name, s.ApprovePlan))
		return ws.planFile, nil, nil
	case s.ApprovePlan != "auto" && s.ApprovePlan == unkeyedID(p):
		log.Info(fmt.Sprintf("plan %s is approved by spec.approvePlan of Terraform/%s, which names it by the id it had before plan ids were keyed (%s); write approvePlan: %s", rv.PlanID, s.Name, s.ApprovePlan, rv.PlanID))
		return ws.planFile, nil, nil
	case s.ApprovePlan != "auto":
		reason = fmt.Sprintf("spec.approvePlan of Terraform/%s (%s) is %q, not \"auto\"", s.Name, s.File, s.ApprovePlan)
	default:
		return ws.planFile, nil, nil
	}

	a, ok, err := r.cfg.Approvals.Approved(ctx, req.Client, req.Env, s.Name, rv.PlanID)
	if err != nil {
		return "", nil, err
	}
	if ok {
		held, err := r.cfg.Approvals.HeldPlan(ctx, req.Client, req.Env, s.Name, rv.PlanID)
		if err != nil {
			return "", nil, err
		}
		log.Info(fmt.Sprintf("plan %s was approved by %s at %s (%s): applying the saved plan",
			rv.PlanID, a.By, a.ApprovedAt.UTC().Format("2006-01-02T15:04:05Z"), a.Reason))
		release = func() error {
			return r.cfg.Approvals.Release(context.WithoutCancel(ctx), req.Client, req.Env, s.Name, rv.PlanID)
		}
		return filepath.Join(held.Dir, approval.PlanFile), release, nil
	}

	// Older held plans are superseded by this one; an approval of one of
	// them is stale and can never apply, unless it is this very plan held
	// before plan ids were keyed.
	older, err := r.cfg.Approvals.HeldPlans(ctx, req.Client, req.Env, s.Name)
	if err != nil {
		return "", nil, err
	}
	for _, h := range older {
		if h.PlanID == rv.PlanID {
			continue
		}
		if h.PlanID == unkeyedID(p) {
			if a, ok, err := r.cfg.Approvals.Approved(ctx, req.Client, req.Env, s.Name, h.PlanID); err != nil {
				return "", nil, err
			} else if ok {
				saved, err := r.cfg.Approvals.HeldPlan(ctx, req.Client, req.Env, s.Name, h.PlanID)
				if err != nil {
					return "", nil, err
				}
				log.Info(fmt.Sprintf("plan %s was approved by %s at %s (%s) as %s, its id before plan ids were keyed: applying the saved plan",
					rv.PlanID, a.By, a.ApprovedAt.UTC().Format("2006-01-02T15:04:05Z"), a.Reason, h.PlanID))
				release = func() error {
					return r.cfg.Approvals.Release(context.WithoutCancel(ctx), req.Client, req.Env, s.Name, h.PlanID)
				}
				return filepath.Join(saved.Dir, approval.PlanFile), release, nil
			}
		}
		if a, ok, _ := r.cfg.Approvals.Approved(ctx, req.Client, req.Env, s.Name, h.PlanID); ok {
			log.Warn(fmt.Sprintf("approval of %s by %s is stale: the plan is now %s, so it is held again", h.PlanID, a.By, rv.PlanID))
		}
		if err := r.cfg.Approvals.Release(ctx, req.Client, req.Env, s.Name, h.PlanID); err != nil {
			return "", nil, err
		}
	}
	held, err := r.cfg.Approvals.Hold(ctx, approval.Held{
		Client: req.Client, Env: req.Env, Stack: s.Name, PlanID: rv.PlanID,
		Cause: c.name, Reason: reason, HeldAt: r.cfg.Now().UTC(),
	}, ws.planFile, p.plan.JSON, heldSummary(req, p, c, rv, reason))
	if err != nil {
		return "", nil, err
	}
	return "", nil, &HeldError{
		Stack: s.Name, PlanID: rv.PlanID, Reason: reason, PlanFile: filepath.Join(held.Dir, approval.PlanFile),
		Approve: fmt.Sprintf("strata approve %s %s %s --reason \"…\"", orDot(req.EnvDir), s.Name, rv.PlanID),
	}
}

// unkeyedID is the id p had before plan ids were keyed, or "" when it has
// none.
func unkeyedID(p planned) string {
	id, err := policy.UnkeyedPlanID(p.plan.JSON)
	if err != nil {
		return ""
	}
	return id
}

func denials(fs []policy.Finding) string {
	parts := make([]string, 0, len(fs))
	for _, f := range fs {
		parts = append(parts, fmt.Sprintf("%s (%s)", orPlan(f.Address), f.Rule))
	}
	return strings.Join(parts, ", ")
}

func orDot(s string) string {
	if s == "" {
		return "ENV"
	}
	return s
}

// heldSummary is the readable summary kept beside a held plan.
func heldSummary(req Request, p planned, c cause, rv Review, reason string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: plan %s held\n\n", req.Stack.Name, rv.PlanID)
	fmt.Fprintf(&b, "- environment: %s/%s (%s)\n- cause: %s\n- why held: %s\n\n", req.Client, req.Env, req.Class, orNone(c.name), reason)
	if c.line != "" {
		fmt.Fprintf(&b, "%s\n\n", c.line)
	}
	fmt.Fprintf(&b, "## Changes (%s)\n\n", p.summaryLine())
	for _, l := range p.lines {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	if len(rv.Decision.Denies) > 0 {
		b.WriteString("\n## Denied by policy\n\n")
		for _, f := range rv.Decision.Denies {
			fmt.Fprintf(&b, "- `%s` %s: %s\n", f.Rule, orPlan(f.Address), f.Message)
		}
	}
	if rv.Contract.Breaks() {
		fmt.Fprintf(&b, "\n## Contract %s: consumers this plan breaks\n\n", rv.Contract.Name)
		for _, cc := range rv.Contract.Consumers {
			fmt.Fprintf(&b, "- %s reads `%s.%s` at %s:%d: %s\n", cc.Stack, cc.Section, cc.Key, cc.File, cc.Line, cc.Why)
		}
	}
	if len(rv.Decision.Warnings) > 0 {
		b.WriteString("\n## Warnings\n\n")
		for _, f := range rv.Decision.Warnings {
			fmt.Fprintf(&b, "- `%s` %s: %s\n", f.Rule, orPlan(f.Address), f.Message)
		}
	}
	return b.String()
}
