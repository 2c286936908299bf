package web

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/strata-iac/strata/orchestrator/approval"
)

type heldPage struct {
	page
	Plans []heldView
	// Problems are environments whose held plans cannot be read.
	Problems []string
	// Done says which approval was just recorded; Refused why one was not,
	// for the plan RefusedID.
	Done, Refused, RefusedID string
	Now                      time.Time
}

// heldView is one held plan.
type heldView struct {
	approval.Held
	// Label is the environment's client/env.
	Label string
	// Denials are the reasons it is held, one per policy denial.
	Denials []string
	// Changes are the plan's resource changes, as "action address".
	Changes []string
	// Approved is the approval already recorded, if any.
	Approved *approval.Approval
	Summary  string
}

// handleHeld lists every held plan across the environments.
func (s *Server) handleHeld(w http.ResponseWriter, r *http.Request) {
	p := s.heldPage(w, r)
	if id := r.URL.Query().Get("approved"); id != "" {
		p.Done = id
	}
	s.render(w, r, http.StatusOK, "held", p)
}

func (s *Server) heldPage(w http.ResponseWriter, r *http.Request) *heldPage {
	ctx := r.Context()
	p := &heldPage{page: s.newPage(w, r, "Held plans"), Now: s.cfg.Now()}
	p.Nav = "held"
	for _, v := range s.environments(ctx) {
		if v.Problem != "" {
			continue
		}
		held, err := v.heldPlans(ctx)
		if err != nil {
			p.Problems = append(p.Problems, oneLine(err.Error()))
			continue
		}
		store, err := v.heldStore(ctx)
		if err != nil {
			p.Problems = append(p.Problems, oneLine(err.Error()))
			continue
		}
		for _, h := range held {
			hv := heldView{Held: h, Label: v.Client + "/" + v.Name, Denials: denials(h.Reason), Changes: planChanges(h.Dir)}
			if a, ok, err := store.Approved(ctx, h.Client, h.Env, h.Stack, h.PlanID); err == nil && ok {
				hv.Approved = &a
			}
			if b, err := os.ReadFile(filepath.Join(h.Dir, approval.SummaryFile)); err == nil {
				hv.Summary = string(b)
			}
			p.Plans = append(p.Plans, hv)
		}
	}
	return p
}

// denials splits a held plan's reason into its policy denials.
func denials(reason string) []string {
	rest, ok := strings.CutPrefix(reason, "denied by policy: ")
	if !ok {
		return []string{reason}
	}
	return strings.Split(rest, ", ")
}

// planChanges reads a held plan's resource changes from its JSON, as tofu
// show -json wrote it.
func planChanges(dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, approval.JSONFile))
	if err != nil {
		return nil
	}
	var plan tfjson.Plan
	if err := plan.UnmarshalJSON(b); err != nil {
		return []string{"the plan's JSON cannot be read: " + oneLine(err.Error())}
	}
	var out []string
	for _, rc := range plan.ResourceChanges {
		if rc.Change == nil || rc.Change.Actions.NoOp() || rc.Change.Actions.Read() {
			continue
		}
		out = append(out, action(rc.Change.Actions)+" "+rc.Address)
	}
	return out
}

func action(a tfjson.Actions) string {
	switch {
	case a.Create():
		return "create"
	case a.Update():
		return "update"
	case a.Delete():
		return "delete"
	case a.Replace():
		return "replace"
	}
	return "change"
}

// handleApprove records an approval sent by the form, through the same
// approval code as the API and the command line, with the same plan-id
// check: an id that is no longer held is refused, with the reason.
func (s *Server) handleApprove(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Approve == nil {
		s.renderError(w, r, http.StatusForbidden, "This view is read-only: it approves nothing.")
		return
	}
	if roleFrom(r.Context()) != roleApprover {
		s.renderError(w, r, http.StatusForbidden, "Approving needs the approver token: log out, then log in with it.")
		return
	}
	a := Approval{
		Environment: r.PostFormValue("environment"), Stack: r.PostFormValue("stack"), PlanID: r.PostFormValue("planId"),
		Reason: strings.TrimSpace(r.PostFormValue("reason")), By: strings.TrimSpace(r.PostFormValue("by")),
	}
	err := errors.New("say why this plan may be applied: the reason is required")
	if a.Reason != "" {
		err = s.cfg.Approve(r.Context(), a)
	}
	if err != nil {
		p := s.heldPage(w, r)
		p.Refused, p.RefusedID = oneLine(err.Error()), a.PlanID
		s.render(w, r, http.StatusConflict, "held", p)
		return
	}
	s.log.Info("plan " + a.PlanID + " of " + a.Environment + " " + a.Stack + " approved by " + a.By + " in the web view")
	http.Redirect(w, r, "/held?approved="+pathEscape(a.PlanID), http.StatusSeeOther)
}
