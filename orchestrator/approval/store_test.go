package approval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestHoldApproveRelease(t *testing.T) {
	ctx := context.Background()
	s := New(t.TempDir())
	planFile := filepath.Join(t.TempDir(), "strata.tfplan")
	if err := os.WriteFile(planFile, []byte("binary plan"), 0o600); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h, err := s.Hold(ctx, Held{Client: "acme", Env: "dev", Stack: "net", PlanID: "plan-0123456789ab", Reason: "deny_delete", HeldAt: at}, planFile, []byte(`{"x":1}`), "# net\n")
	if err != nil {
		t.Fatalf("Hold() = %v", err)
	}
	for name, want := range map[string]string{PlanFile: "binary plan", JSONFile: `{"x":1}`, SummaryFile: "# net\n"} {
		b, err := os.ReadFile(filepath.Join(h.Dir, name))
		if err != nil || string(b) != want {
			t.Errorf("held %s = %q, %v, want %q", name, b, err, want)
		}
	}
	// The workspace's plan file may change; the held copy does not.
	os.WriteFile(planFile, []byte("another plan"), 0o600)
	if b, _ := os.ReadFile(filepath.Join(h.Dir, PlanFile)); string(b) != "binary plan" {
		t.Errorf("held plan file = %q after the workspace changed, want the held copy", b)
	}

	tests := []struct {
		name    string
		a       Approval
		wantErr error
	}{
		{"unknown id", Approval{Client: "acme", Env: "dev", Stack: "net", PlanID: "plan-ffffffffffff", By: "ana"}, ErrNoHeldPlan},
		{"other stack", Approval{Client: "acme", Env: "dev", Stack: "api", PlanID: "plan-0123456789ab", By: "ana"}, ErrNoHeldPlan},
		{"held plan", Approval{Client: "acme", Env: "dev", Stack: "net", PlanID: "plan-0123456789ab", By: "ana", Reason: "planned migration", ApprovedAt: at}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Approve(ctx, tt.a)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Approve(%q) = %v, want %v", tt.a.PlanID, err, tt.wantErr)
			}
		})
	}
	got, ok, err := s.Approved(ctx, "acme", "dev", "net", "plan-0123456789ab")
	want := Approval{Client: "acme", Env: "dev", Stack: "net", PlanID: "plan-0123456789ab", By: "ana", Reason: "planned migration", ApprovedAt: at}
	if err != nil || !ok || !cmp.Equal(got, want) {
		t.Errorf("Approved() = %+v, %v, %v, want %+v", got, ok, err, want)
	}
	pending, err := s.Pending(ctx, "acme", "dev", "net")
	if err != nil || len(pending) != 1 {
		t.Errorf("Pending() = %v, %v, want the one approval", pending, err)
	}
	if err := s.Release(ctx, "acme", "dev", "net", "plan-0123456789ab"); err != nil {
		t.Fatalf("Release() = %v", err)
	}
	if _, ok, _ := s.Approved(ctx, "acme", "dev", "net", "plan-0123456789ab"); ok {
		t.Errorf("Approved() after Release = true, want false")
	}
}

func TestInvalidIDs(t *testing.T) {
	s := New(t.TempDir())
	for _, id := range []string{"", "plan-", "../../etc", "plan-XYZ", "plan-ab/../cd"} {
		if err := s.Approve(context.Background(), Approval{Stack: "net", PlanID: id}); err == nil {
			t.Errorf("Approve(%q) = nil, want an invalid id error", id)
		}
	}
}

func TestNames(t *testing.T) {
	const id = "plan-3fa91c2b7d04"
	tests := []struct {
		approvePlan string
		want        bool
	}{
		{id, true},
		{"plan-3fa9", true},
		{"plan-3fa91c2b", true},
		{"plan-3fa", false},
		{"plan-", false},
		{"plan-3fb9", false},
		{id + "0", false},
		{"", false},
		{"auto", false},
		{"replan-3fa91c2b7d04", false},
	}
	for _, tt := range tests {
		if got := Names(tt.approvePlan, id); got != tt.want {
			t.Errorf("Names(%q, %q) = %v, want %v", tt.approvePlan, id, got, tt.want)
		}
	}
}
