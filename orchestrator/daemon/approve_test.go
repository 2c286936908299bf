package daemon_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// TestApproveRemovedStack approves, over the API, the held destroy plan of
// a stack that left the environment; the pass the approval starts applies
// it.
func TestApproveRemovedStack(t *testing.T) {
	h := newHarness(t, "layered", token)
	h.start()
	h.waitPass(1)
	if err := os.Remove(filepath.Join(h.dir, "services", "report.yaml")); err != nil {
		t.Fatal(err)
	}
	h.d.Trigger()
	h.waitPass(2)
	st, _ := status(t, h.handler, token)
	held := stackOf(t, st, "report")
	if held.Result != history.ResultHeld || held.Cause != runner.CauseRemoved || held.PlanID == "" {
		t.Fatalf("after removing report: report = %+v, want its removal held\nlogs:\n%s", held, h.logs.String())
	}

	b, err := json.Marshal(daemon.ApproveRequest{Environment: "acme/dev", Stack: "report", PlanID: held.PlanID, Reason: "report is retired", By: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	if code, body := do(t, h.handler, "POST", "/api/v1/approve", token, string(b)); code != http.StatusOK {
		t.Fatalf("POST /api/v1/approve %s = %d %s, want 200", b, code, body)
	}
	h.waitPass(3)
	st, _ = status(t, h.handler, token)
	if got := stackOf(t, st, "report"); got.Result != history.ResultApplied || got.Summary.Destroy != 1 {
		t.Errorf("after the approval report = %+v, want its removal applied\nlogs:\n%s", got, h.logs.String())
	}
}
