package runjob

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
)

func TestSummarise(t *testing.T) {
	long := strings.Repeat("é", MaxMessage)
	tests := []struct {
		name string
		out  controller.Outcome
		want Summary
	}{
		{"applied", controller.NewOutcome(runner.Result{Stack: "network", Message: "the infrastructure is up to date",
			Run: history.Run{Number: 2, Result: history.ResultApplied, PlanID: "plan-1"}}, nil),
			Summary{Stack: "network", Result: "applied", Run: 2, PlanID: "plan-1", Message: "the infrastructure is up to date"}},
		{"failed: the error", controller.NewOutcome(runner.Result{Stack: "network", Message: "run #3 failed",
			Run: history.Run{Number: 3, Result: history.ResultFailed}}, errors.New("tofu plan: exit status 1")),
			Summary{Stack: "network", Result: "failed", Run: 3, Message: "tofu plan: exit status 1"}},
		{"a long message is cut", controller.NewOutcome(runner.Result{Stack: "network", Message: long,
			Run: history.Run{Result: history.ResultFailed}}, nil),
			Summary{Stack: "network", Result: "failed", Message: long[:MaxMessage] + "…"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarise(tt.out)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Summarise(%s) (-want +got):\n%s", tt.name, diff)
			}
			if b, _ := json.Marshal(got); len(b) > 4096 {
				t.Errorf("Summarise(%s) is %d bytes of JSON, more than a termination message holds", tt.name, len(b))
			}
		})
	}
}
