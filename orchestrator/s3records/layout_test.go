package s3records

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/recordstest"
)

// TestLayout reads a bucket as strata wrote it before the records engine
// (testdata/layout: each file is the object its path names), goes on
// writing it, and finds the new objects where that layout puts them.
func TestLayout(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t)
	const prefix = "layout"
	err := filepath.WalkDir("testdata/layout", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel("testdata/layout", path)
		awstest.PutObject(t, srv.endpoint, bucket, prefix+"/"+filepath.ToSlash(rel), string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s := srv.open(t, prefix, 0)

	recordstest.OldLayout(t, s, s, []string{"a/b", "network"})

	// The next run of a/b interrupts the one left running, and lands
	// where the layout puts it.
	r, err := s.Begin(ctx, history.Run{Client: "acme", Env: "dev", Stack: "a/b", Operation: history.OperationApply})
	if err != nil || r.Number != 3 {
		t.Fatalf("Begin(a/b) = #%d, %v, want #3", r.Number, err)
	}
	if got, ok, err := s.LastMatching(ctx, "acme", "dev", "a/b", func(r history.Run) bool { return r.Number == 2 }); err != nil || !ok || got.Result != history.ResultInterrupted {
		t.Errorf("run #2 of a/b = %s, %v, %v, want interrupted", got.Result, ok, err)
	}
	h := approval.Held{Client: "acme", Env: "dev", Stack: "network", PlanID: "plan-00000000aaaa", Reason: "deny_delete", HeldAt: time.Now()}
	pf := filepath.Join(t.TempDir(), "plan")
	if err := os.WriteFile(pf, []byte("new plan"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Hold(ctx, h, pf, []byte(`{}`), "new"); err != nil {
		t.Fatalf("Hold(plan-00000000aaaa) = %v", err)
	}
	for _, key := range []string{
		"runs/acme/dev/a%2Fb/0000000003.json",
		"held/acme/dev/network/plan-00000000aaaa/record.json",
		"held/acme/dev/network/plan-00000000aaaa/plan.tfplan",
		"held/acme/dev/network/plan-00000000aaaa/plan.json",
		"held/acme/dev/network/plan-00000000aaaa/summary.md",
	} {
		if !awstest.ObjectExists(t, srv.endpoint, bucket, prefix+"/"+key) {
			t.Errorf("object %s/%s = none, want it written there", prefix, key)
		}
	}
}
