//go:build k8s

package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
	"github.com/strata-iac/strata/orchestrator/web"
)

// TestClusterRecordsViewInCluster shows the runs and a held plan that a
// cluster's records keep, with an empty state directory: the fleet, the
// stack page and the held plans page read them from the namespace.
func TestClusterRecordsViewInCluster(t *testing.T) {
	ctx := context.Background()
	c := k8stest.Get(t)
	ns := c.Namespace(t, "strata-web")
	store, err := kuberecords.New(kuberecords.Config{Kubeconfig: c.Kubeconfig, Namespace: ns, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	run, err := store.Begin(ctx, history.Run{Client: "acme", Env: "dev", Stack: "base", Operation: history.OperationApply, ToVersion: "9.9.9"})
	if err != nil {
		t.Fatal(err)
	}
	run.Result = history.ResultApplied
	if err := store.Record(ctx, run); err != nil {
		t.Fatal(err)
	}
	pf := filepath.Join(t.TempDir(), "strata.tfplan")
	if err := os.WriteFile(pf, []byte("plan"), 0o600); err != nil {
		t.Fatal(err)
	}
	held := approval.Held{Client: "acme", Env: "dev", Stack: "app", PlanID: "plan-00c0ffee00aa", Reason: "denied by policy: deny_delete", HeldAt: time.Now().UTC()}
	if _, err := store.Hold(ctx, held, pf, []byte(`{}`), "# app: replace in the cluster\n"); err != nil {
		t.Fatal(err)
	}

	root := testkit.Copy(t, filepath.Join("..", "testdata", "layered"))
	w, err := web.New(web.Config{
		Environments: []string{filepath.Join(root, "environments", "acme", "dev")},
		StateDir:     t.TempDir(), Records: envstores.SharedRecords(store), ReadToken: readToken,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tests := []struct {
		path string
		want []string
	}{
		{"/", []string{"9.9.9"}},
		{"/stack/acme/dev/base", []string{"#1", "applied"}},
		{"/stack/acme/dev/app", []string{"1 plan(s) of this stack are held", "app: replace in the cluster"}},
		{"/held", []string{"plan-00c0ffee00aa", "deny_delete", "app: replace in the cluster"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			req.AddCookie(&http.Cookie{Name: "strata_token", Value: readToken})
			rec := httptest.NewRecorder()
			w.Handler().ServeHTTP(rec, req)
			body := rec.Body.String()
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s = %d, want 200:\n%s", tt.path, rec.Code, body)
			}
			for _, want := range tt.want {
				if !strings.Contains(body, want) {
					t.Errorf("GET %s lacks %q", tt.path, want)
				}
			}
		})
	}
}
