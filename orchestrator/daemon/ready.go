package daemon

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/strata-iac/strata/orchestrator/history"
)

// NotFinished is the reason given before the first reconcile finished.
const NotFinished = "first reconcile not finished"

// Ready reports whether this process leads, when there is an Elector
// ("not the leader (leader: host_1234)" when not), and every
// environment's last reconcile ran and left
// every stack ready (history.Result.Ready): applied, planned, no-changes,
// unchanged or waiting on an upstream. A held plan needs a person, so it
// is not ready. When not, it says why, one line for each environment or stack
// that is not ready: "acme/dev jobs: failed: …".
func (d *Daemon) Ready() (bool, []string) {
	if why := d.notLeader(); why != "" {
		return false, []string{why}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var reasons []string
	anyDone := false
	for _, e := range d.envs {
		if !e.done {
			continue
		}
		anyDone = true
		if e.err != nil {
			reasons = append(reasons, fmt.Sprintf("%s: reconcile failed: %s", e.label(), oneLine(e.err.Error())))
			continue
		}
		if e.report == nil {
			reasons = append(reasons, fmt.Sprintf("%s: no report", e.label()))
			continue
		}
		for _, s := range e.report.Stacks {
			if s.Result.Ready() {
				continue
			}
			result := string(s.Result)
			if result == "" {
				result = "no result"
			}
			why := oneLine(s.Message)
			if why == "" && s.Result == history.ResultHeld {
				why = fmt.Sprintf("plan %s waits for approval", s.PlanID)
			}
			reasons = append(reasons, strings.TrimSuffix(fmt.Sprintf("%s %s: %s: %s", e.label(), s.Stack, result, why), ": "))
		}
	}
	if !anyDone {
		return false, []string{NotFinished}
	}
	for _, e := range d.envs {
		if !e.done {
			reasons = append(reasons, fmt.Sprintf("%s: %s", e.label(), NotFinished))
		}
	}
	return len(reasons) == 0, reasons
}

// oneLine joins a multi-line message (a tofu error, a list of problems)
// into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func (d *Daemon) handleReadyz(w http.ResponseWriter, _ *http.Request) {
	ok, reasons := d.Ready()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, strings.Join(reasons, "\n"))
		return
	}
	fmt.Fprintln(w, "ok")
}
