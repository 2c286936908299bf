package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// ApproveRequest is the body of POST /api/v1/approve.
type ApproveRequest struct {
	// Environment is an environment of the daemon: its directory as
	// configured ("environments/demo/dev") or its client/env ("demo/dev").
	Environment string `json:"environment"`
	Stack       string `json:"stack"`
	PlanID      string `json:"planId"`
	// Reason says why the plan may be applied and By who approves; both
	// are required.
	Reason string `json:"reason"`
	By     string `json:"by"`
}

// RequestError is an API request that cannot be served, with the HTTP
// status that says why.
type RequestError struct {
	Code     int
	Msg      string
	Problems diag.Problems
}

func (e *RequestError) Error() string { return e.Msg }

func badRequest(code int, format string, args ...any) *RequestError {
	return &RequestError{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Approve records a person's approval of one held plan, exactly as
// `strata approve` does, then starts a pass so that it is applied. It needs
// neither the history nor a pause of the loop: held plans and approvals
// are files of their own, which a running reconcile does not lock.
func (d *Daemon) Approve(ctx context.Context, req ApproveRequest) (approval.Approval, error) {
	req.Environment = strings.TrimSpace(req.Environment)
	req.Stack = strings.TrimSpace(req.Stack)
	req.PlanID = strings.TrimSpace(req.PlanID)
	req.By = strings.TrimSpace(req.By)
	for _, f := range []struct{ name, value, why string }{
		{"environment", req.Environment, "name the environment, as its directory or client/env"},
		{"stack", req.Stack, "name the stack whose plan is held"},
		{"planId", req.PlanID, "give the held plan's id"},
		{"reason", strings.TrimSpace(req.Reason), "say why this plan may be applied"},
		{"by", req.By, "say who approves"},
	} {
		if f.value == "" {
			return approval.Approval{}, badRequest(http.StatusBadRequest, "approve: %s is required: %s", f.name, f.why)
		}
	}
	if !validPlanID(req.PlanID) {
		return approval.Approval{}, badRequest(http.StatusBadRequest, "approve: invalid plan id %q: a plan id looks like plan-0123456789ab", req.PlanID)
	}
	e := d.lookup(ctx, req.Environment)
	if e == nil {
		return approval.Approval{}, badRequest(http.StatusNotFound, "approve: no environment %q in this daemon; it reconciles %s", req.Environment, strings.Join(d.labels(), ", "))
	}
	env, _, err := orchestrator.Validate(ctx, e.dir)
	if err != nil {
		re := badRequest(http.StatusConflict, "approve: environment %s is invalid: %s", e.dir, oneLine(err.Error()))
		errors.As(err, &re.Problems)
		return approval.Approval{}, re
	}
	if env.Stack(req.Stack) == nil {
		return approval.Approval{}, badRequest(http.StatusNotFound, "approve: environment %s has no stack %q", e.dir, req.Stack)
	}
	dir, err := heldDir(env, d.cfg.Options.StateDir)
	if err != nil {
		return approval.Approval{}, err
	}
	store := approval.New(dir)
	a := approval.Approval{
		Client: env.Client, Env: env.Name, Stack: req.Stack, PlanID: req.PlanID,
		By: req.By, Reason: req.Reason, ApprovedAt: d.cfg.Now().UTC(),
	}
	if err := store.Approve(ctx, a); err != nil {
		if errors.Is(err, approval.ErrNoHeldPlan) {
			return approval.Approval{}, badRequest(http.StatusNotFound, "%v%s", err, heldList(ctx, store, env.Client, env.Name, req.Stack))
		}
		return approval.Approval{}, err
	}
	d.log.Info(fmt.Sprintf("plan %s of %s/%s %s approved by %s over the API: %s", a.PlanID, a.Client, a.Env, a.Stack, a.By, oneLine(a.Reason)))
	d.Trigger()
	return a, nil
}

func (d *Daemon) handleApprove(w http.ResponseWriter, r *http.Request) {
	var req ApproveRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("approve: read request body: %v", err))
		return
	}
	a, err := d.Approve(r.Context(), req)
	var re *RequestError
	switch {
	case errors.As(err, &re):
		writeJSON(w, re.Code, apiError{Error: re.Msg, Problems: problemsOrNil(re.Problems)})
	case err != nil:
		writeError(w, http.StatusInternalServerError, err.Error())
	default:
		writeJSON(w, http.StatusOK, a)
	}
}

// problemsOrNil keeps an empty list out of the JSON.
func problemsOrNil(ps diag.Problems) any {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// lookup finds one of the daemon's environments by its directory or its
// client/env.
func (d *Daemon) lookup(ctx context.Context, name string) *envState {
	abs, _ := filepath.Abs(name)
	for _, e := range d.envs {
		d.identify(ctx, e)
		d.mu.Lock()
		label := e.label()
		d.mu.Unlock()
		if e.dir == filepath.Clean(name) || label == name {
			return e
		}
		if eabs, err := filepath.Abs(e.dir); err == nil && eabs == abs {
			return e
		}
	}
	return nil
}

// labels names every environment of the daemon, for messages.
func (d *Daemon) labels() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.envs))
	for _, e := range d.envs {
		if l := e.label(); l != e.dir {
			out = append(out, fmt.Sprintf("%s (%s)", l, e.dir))
		} else {
			out = append(out, e.dir)
		}
	}
	return out
}

// heldDir is where the environment's held plans are: the same directory
// orchestrator.OpenStores gives its approval store, found without opening
// the history, which a running reconcile holds.
func heldDir(env *environment.Environment, stateDir string) (string, error) {
	if stateDir == "" {
		stateDir = filepath.Join(env.Root, ".strata")
	}
	abs, err := filepath.Abs(stateDir)
	if err != nil {
		return "", fmt.Errorf("approve: open state directory %s: %w", stateDir, err)
	}
	return filepath.Join(abs, "held"), nil
}

// heldList names the stack's held plans, for an approval of an id that is
// not held.
func heldList(ctx context.Context, store *approval.Store, client, env, stack string) string {
	held, err := store.HeldPlans(ctx, client, env, stack)
	if err != nil || len(held) == 0 {
		return fmt.Sprintf("; stack %s has no held plan", stack)
	}
	ids := make([]string, 0, len(held))
	for _, h := range held {
		ids = append(ids, fmt.Sprintf("%s (held %s: %s)", h.PlanID, h.HeldAt.Format(time.DateTime), h.Reason))
	}
	return fmt.Sprintf("; held plans of stack %s: %s", stack, strings.Join(ids, "; "))
}

// validPlanID keeps ids to the form the approval store accepts: "plan-"
// and hex digits.
func validPlanID(id string) bool {
	rest, ok := strings.CutPrefix(id, "plan-")
	return ok && rest != "" && strings.Trim(rest, "0123456789abcdef") == ""
}
