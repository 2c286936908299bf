package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/diag"
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

// Approve records a person's approval of one held plan with
// the pipeline, as `strata approve` does, then starts a pass so
// that it is applied. It needs neither the history nor a pause of the
// loop: held plans and approvals are files of their own, which a running
// reconcile does not lock.
func (d *Daemon) Approve(ctx context.Context, req ApproveRequest) (approval.Approval, error) {
	name := strings.TrimSpace(req.Environment)
	if name == "" {
		return approval.Approval{}, badRequest(http.StatusBadRequest, "approve: environment is required: name the environment, as its directory or client/env")
	}
	e := d.lookup(ctx, name)
	if e == nil {
		return approval.Approval{}, badRequest(http.StatusNotFound, "approve: no environment %q in this daemon; it reconciles %s", name, strings.Join(d.labels(), ", "))
	}
	a, err := d.cfg.Pipeline.Approve(ctx, e.dir, approval.Request{
		Stack: req.Stack, PlanID: req.PlanID, Reason: req.Reason, By: req.By, At: d.cfg.Now(),
	})
	var problems diag.Problems
	switch {
	case err == nil:
	case errors.Is(err, approval.ErrBadApproval):
		return a, badRequest(http.StatusBadRequest, "%v", err)
	case errors.Is(err, approval.ErrUnknownStack), errors.Is(err, approval.ErrNoHeldPlan):
		return a, badRequest(http.StatusNotFound, "%v", err)
	case errors.As(err, &problems):
		re := badRequest(http.StatusConflict, "%s", oneLine(err.Error()))
		re.Problems = problems
		return a, re
	default:
		return a, err
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
