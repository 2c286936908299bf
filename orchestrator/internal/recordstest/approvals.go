package recordstest

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/approval"
)

// planFile writes a plan file with data and returns its path.
func planFile(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "strata.tfplan")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// held is a held plan of acme/dev's stack.
func held(stack, id string, heldAt time.Time) approval.Held {
	return approval.Held{Client: "acme", Env: "dev", Stack: stack, PlanID: id, Cause: "upgrade", Reason: "deny_delete", HeldAt: heldAt}
}

// checkFiles checks a held plan's files in its Dir.
func checkFiles(t *testing.T, h approval.Held, want map[string][]byte) {
	t.Helper()
	for name, w := range want {
		b, err := os.ReadFile(filepath.Join(h.Dir, name))
		if err != nil || !cmp.Equal(b, w) {
			t.Errorf("held %s of %s = %d bytes, %v, want %d bytes as held", name, h.PlanID, len(b), err, len(w))
		}
	}
}

func testHold(t *testing.T, impl Impl) {
	ctx := context.Background()
	a := impl.Open(t).Approvals
	pf := planFile(t, []byte("binary plan"))
	h, err := a.Hold(ctx, held("network", "plan-0123456789ab", at), pf, []byte(`{"x":1}`), "# network\n")
	if err != nil {
		t.Fatalf("Hold() = %v", err)
	}
	want := map[string][]byte{approval.PlanFile: []byte("binary plan"), approval.JSONFile: []byte(`{"x":1}`), approval.SummaryFile: []byte("# network\n")}
	checkFiles(t, h, want)
	// The workspace's plan file changes; the held plan does not.
	if err := os.WriteFile(pf, []byte("another plan"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := a.HeldPlan(ctx, "acme", "dev", "network", "plan-0123456789ab")
	if err != nil {
		t.Fatalf("HeldPlan() = %v", err)
	}
	checkFiles(t, got, want)
	got.Dir = ""
	if w := held("network", "plan-0123456789ab", at); !cmp.Equal(got, w) {
		t.Errorf("HeldPlan() = %+v, want %+v", got, w)
	}
	if _, err := a.Hold(ctx, held("network", "plan-00000000aaaa", at.Add(time.Minute)), pf, []byte(`{}`), "newer"); err != nil {
		t.Fatalf("Hold(newer) = %v", err)
	}
	list, err := a.HeldPlans(ctx, "acme", "dev", "network")
	var ids []string
	for _, h := range list {
		ids = append(ids, h.PlanID)
	}
	if want := []string{"plan-00000000aaaa", "plan-0123456789ab"}; err != nil || !cmp.Equal(ids, want) {
		t.Errorf("HeldPlans(network) = %v, %v, want %v (newest first)", ids, err, want)
	}

	approvals := []struct {
		name    string
		a       approval.Approval
		wantErr error
	}{
		{"unknown id", approval.Approval{Client: "acme", Env: "dev", Stack: "network", PlanID: "plan-ffffffffffff", By: "ana"}, approval.ErrNoHeldPlan},
		{"other stack", approval.Approval{Client: "acme", Env: "dev", Stack: "cluster", PlanID: "plan-0123456789ab", By: "ana"}, approval.ErrNoHeldPlan},
		{"held plan", approval.Approval{Client: "acme", Env: "dev", Stack: "network", PlanID: "plan-0123456789ab", By: "ana", Reason: "planned migration", ApprovedAt: at}, nil},
	}
	for _, tt := range approvals {
		t.Run(tt.name, func(t *testing.T) {
			if err := a.Approve(ctx, tt.a); !errors.Is(err, tt.wantErr) {
				t.Errorf("Approve(%q of %s) = %v, want %v", tt.a.PlanID, tt.a.Stack, err, tt.wantErr)
			}
		})
	}
	wantA := approvals[2].a
	if got, ok, err := a.Approved(ctx, "acme", "dev", "network", "plan-0123456789ab"); err != nil || !ok || !cmp.Equal(got, wantA) {
		t.Errorf("Approved() = %+v, %v, %v, want %+v", got, ok, err, wantA)
	}
	if _, ok, err := a.Approved(ctx, "acme", "dev", "network", "plan-00000000aaaa"); ok || err != nil {
		t.Errorf("Approved(not approved) = %v, %v, want false, nil", ok, err)
	}
	// Held again (the same plan, planned again), it keeps its approval.
	if _, err := a.Hold(ctx, held("network", "plan-0123456789ab", at.Add(2*time.Minute)), pf, []byte(`{"x":1}`), "# network\n"); err != nil {
		t.Fatalf("Hold(again) = %v", err)
	}
	if _, ok, err := a.Approved(ctx, "acme", "dev", "network", "plan-0123456789ab"); !ok || err != nil {
		t.Errorf("Approved() after holding the plan again = %v, %v, want true", ok, err)
	}
	if err := a.Release(ctx, "acme", "dev", "network", "plan-0123456789ab"); err != nil {
		t.Fatalf("Release() = %v", err)
	}
	if _, ok, _ := a.Approved(ctx, "acme", "dev", "network", "plan-0123456789ab"); ok {
		t.Errorf("Approved() after Release = true, want false")
	}
	if _, err := a.HeldPlan(ctx, "acme", "dev", "network", "plan-0123456789ab"); !errors.Is(err, approval.ErrNoHeldPlan) {
		t.Errorf("HeldPlan() after Release = %v, want %v", err, approval.ErrNoHeldPlan)
	}
	if list, err := a.HeldPlans(ctx, "acme", "dev", "network"); err != nil || len(list) != 1 {
		t.Errorf("HeldPlans() after Release = %d plans, %v, want 1", len(list), err)
	}
}

func testLargePlan(t *testing.T, impl Impl) {
	ctx := context.Background()
	a := impl.Open(t).Approvals
	// Random bytes do not compress: 900 KiB takes two objects of a
	// cluster's 1 MiB.
	plan := make([]byte, 900<<10)
	rand.Read(plan)
	planJSON := make([]byte, 1<<20)
	for i := range planJSON {
		planJSON[i] = "{}[]\"a:1,"[i%9]
	}
	if _, err := a.Hold(ctx, held("network", "plan-0123456789ab", at), planFile(t, plan), planJSON, "# large\n"); err != nil {
		t.Fatalf("Hold(900 KiB plan) = %v", err)
	}
	got, err := a.HeldPlan(ctx, "acme", "dev", "network", "plan-0123456789ab")
	if err != nil {
		t.Fatalf("HeldPlan(900 KiB plan) = %v", err)
	}
	checkFiles(t, got, map[string][]byte{approval.PlanFile: plan, approval.JSONFile: planJSON, approval.SummaryFile: []byte("# large\n")})
	if err := a.Release(ctx, "acme", "dev", "network", "plan-0123456789ab"); err != nil {
		t.Errorf("Release(900 KiB plan) = %v", err)
	}
}

func testInvalidIDs(t *testing.T, impl Impl) {
	ctx := context.Background()
	a := impl.Open(t).Approvals
	pf := planFile(t, []byte("plan"))
	for _, id := range []string{"", "plan-", "../../etc", "plan-XYZ", "plan-ab/../cd"} {
		if err := a.Approve(ctx, approval.Approval{Client: "acme", Env: "dev", Stack: "network", PlanID: id}); err == nil {
			t.Errorf("Approve(%q) = nil, want an invalid id error", id)
		}
		if _, err := a.Hold(ctx, held("network", id, at), pf, nil, ""); err == nil {
			t.Errorf("Hold(%q) = nil, want an invalid id error", id)
		}
		if _, ok, err := a.Approved(ctx, "acme", "dev", "network", id); ok || err != nil {
			t.Errorf("Approved(%q) = %v, %v, want false, nil", id, ok, err)
		}
	}
}
