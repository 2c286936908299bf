package recordstest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/approval"
)

// OldLayout checks what both backends' layout fixtures hold, as strata
// wrote them before the records engine: the stacks of acme/dev (stacks,
// sorted), network's run #1 as its last good run with 3 to add, its held
// plan plan-0123456789ab with its three files, ana's approval of it, and
// the claim of the key state:s3:b,dev/net by environments/acme/dev.
func OldLayout(t *testing.T, h History, a Approvals, stacks []string) {
	t.Helper()
	ctx := context.Background()
	if got, err := h.Stacks(ctx, "acme", "dev"); err != nil || !cmp.Equal(got, stacks) {
		t.Errorf("Stacks(acme/dev) = %v, %v, want %v", got, err, stacks)
	}
	if got, ok, err := h.LastGood(ctx, "acme", "dev", "network"); err != nil || !ok || got.Number != 1 || got.Summary.Add != 3 {
		t.Errorf("LastGood(network) = %+v, %v, %v, want run #1 with 3 to add", got, ok, err)
	}
	held, err := a.HeldPlan(ctx, "acme", "dev", "network", "plan-0123456789ab")
	if err != nil {
		t.Fatalf("HeldPlan(plan-0123456789ab) = %v", err)
	}
	for name, want := range map[string]string{approval.PlanFile: "old plan", approval.JSONFile: `{"format_version":"1.2"}`, approval.SummaryFile: "# network\n"} {
		if b, err := os.ReadFile(filepath.Join(held.Dir, name)); err != nil || string(b) != want {
			t.Errorf("held %s = %q, %v, want %q", name, b, err, want)
		}
	}
	if got, ok, err := a.Approved(ctx, "acme", "dev", "network", "plan-0123456789ab"); err != nil || !ok || got.By != "ana" {
		t.Errorf("Approved(plan-0123456789ab) = %+v, %v, %v, want ana's", got, ok, err)
	}
	if got, err := h.Claim(ctx, "environments/acme/copy", []string{"state:s3:b,dev/net"}, func(string) bool { return false }); err != nil || got["state:s3:b,dev/net"] != "environments/acme/dev" {
		t.Errorf("Claim(a key acme/dev claimed) = %v, %v, want acme/dev's", got, err)
	}
}
