package daemon

import (
	"errors"
	"net/http"
	"time"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/report"
)

// Status is what GET /api/v1/status answers.
type Status struct {
	// Ready and Reasons are what /readyz answers.
	Ready   bool     `json:"ready"`
	Reasons []string `json:"reasons,omitempty"`
	// Interval is the wait between passes, as a Go duration ("5m0s").
	Interval string `json:"interval"`
	// NextReconcileAt is when the next pass starts; absent while one runs.
	NextReconcileAt time.Time           `json:"nextReconcileAt,omitzero"`
	Environments    []EnvironmentStatus `json:"environments"`
}

// EnvironmentStatus is one environment's part of Status.
type EnvironmentStatus struct {
	// Dir is the environment directory as configured.
	Dir         string `json:"dir"`
	Client      string `json:"client,omitempty"`
	Environment string `json:"environment,omitempty"`
	// Reconciles counts the reconciles this process started.
	Reconciles int  `json:"reconciles"`
	Running    bool `json:"running"`
	// LastReconcileAt is when the latest reconcile started, LastFinishedAt
	// when the latest one to finish did, NextReconcileAt when the next
	// pass starts.
	LastReconcileAt time.Time `json:"lastReconcileAt,omitzero"`
	LastFinishedAt  time.Time `json:"lastFinishedAt,omitzero"`
	NextReconcileAt time.Time `json:"nextReconcileAt,omitzero"`
	// Report is the last report. Error, when set, is why the latest
	// reconcile could not run; Report is then from an earlier one, if any.
	Report *report.Report `json:"report,omitempty"`
	Error  *ErrorStatus   `json:"error,omitempty"`
}

// ErrorStatus is a reconcile's error, with an invalid environment's
// problems one by one.
type ErrorStatus struct {
	Message  string        `json:"message"`
	Problems diag.Problems `json:"problems,omitempty"`
}

func errorStatus(err error) *ErrorStatus {
	if err == nil {
		return nil
	}
	es := &ErrorStatus{Message: err.Error()}
	var problems diag.Problems
	if errors.As(err, &problems) {
		es.Problems = problems
	}
	return es
}

// Status returns the daemon's state: what every environment's last
// reconcile did. It holds no contract value: reports only name contracts.
func (d *Daemon) Status() Status {
	ready, reasons := d.Ready()
	d.mu.Lock()
	defer d.mu.Unlock()
	st := Status{
		Ready: ready, Reasons: reasons,
		Interval:        d.cfg.Interval.String(),
		NextReconcileAt: d.next,
		Environments:    make([]EnvironmentStatus, 0, len(d.envs)),
	}
	for _, e := range d.envs {
		st.Environments = append(st.Environments, EnvironmentStatus{
			Dir: e.dir, Client: e.client, Environment: e.name,
			Reconciles: e.reconciles, Running: e.running,
			LastReconcileAt: e.startedAt, LastFinishedAt: e.finishedAt, NextReconcileAt: d.next,
			Report: e.report, Error: errorStatus(e.err),
		})
	}
	return st
}

func (d *Daemon) handleStatus(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, d.Status())
}
