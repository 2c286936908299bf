package controller

import (
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

func TestUnapproved(t *testing.T) {
	const pending = "plan-0123456789abcdef"
	tests := []struct {
		name, approvePlan, pending, lastApplied string
		// want are words of the message; none when it approves or says
		// nothing.
		want []string
	}{
		{name: "names the pending plan", approvePlan: pending, pending: pending},
		{name: "a prefix of it", approvePlan: "plan-0123", pending: pending},
		{name: "auto", approvePlan: "auto", pending: pending},
		{name: "disable", approvePlan: "disable", pending: pending},
		{name: "empty", pending: pending},
		{name: "nothing pending", approvePlan: "plan-main-b8e362c206"},
		{name: "the plan last applied, left in the spec", approvePlan: "plan-feed", pending: pending, lastApplied: "plan-feed"},
		{
			name: "the Tofu Controller's id", approvePlan: "plan-main-b8e362c206", pending: pending,
			want: []string{`"plan-main-b8e362c206" names no pending plan`, `set approvePlan: "` + pending + `"`},
		},
		// The Tofu Controller's "plan again": a held plan is planned
		// again on every pass.
		{name: "replan", approvePlan: "replan-main-b8e362c206", pending: pending},
		{
			name: "too short a prefix", approvePlan: "plan-", pending: pending,
			want: []string{`set approvePlan: "` + pending + `"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tf := &v1alpha2.Terraform{
				Spec:   v1alpha2.TerraformSpec{ApprovePlan: tt.approvePlan},
				Status: v1alpha2.TerraformStatus{Plan: v1alpha2.PlanStatus{Pending: tt.pending, LastApplied: tt.lastApplied}},
			}
			got := unapproved(tf)
			if (got == "") != (len(tt.want) == 0) {
				t.Fatalf("unapproved(%q) = %q, want a message: %v", tt.approvePlan, got, len(tt.want) > 0)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("unapproved(%q) = %q, want it to say %q", tt.approvePlan, got, w)
				}
			}
		})
	}
}
