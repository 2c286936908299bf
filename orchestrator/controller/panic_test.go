package controller

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/runlog"
)

// panickingCluster is a cluster whose listing of one namespace panics,
// as a bug in a reconcile would, and which has no Terraform object in any
// other. It counts the listings of each namespace.
type panickingCluster struct {
	Cluster
	bad   string
	mu    sync.Mutex
	lists map[string]int
}

func (c *panickingCluster) Terraforms(_ context.Context, ns string) ([]v1alpha2.Terraform, error) {
	c.mu.Lock()
	c.lists[ns]++
	c.mu.Unlock()
	if ns == c.bad {
		var m map[string]int
		m["boom"]++ // assignment to entry in nil map
	}
	return nil, nil
}

func (c *panickingCluster) Watch(ctx context.Context, _ []string, _ func(string)) error {
	<-ctx.Done()
	return nil
}

func (c *panickingCluster) listed(ns string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lists[ns]
}

// TestRunSurvivesPanic checks that a namespace whose reconcile panics is
// logged with the trace and reconciled again on the next interval, and
// that the other namespaces go on: the controller never exits on it.
func TestRunSurvivesPanic(t *testing.T) {
	cluster := &panickingCluster{bad: "team-b", lists: map[string]int{}}
	logs := &testkit.Buffer{}
	c := New(Config{Cluster: cluster, Namespaces: []string{"team-a", "team-b"}, Interval: 20 * time.Millisecond, Logger: runlog.New(logs, nil)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	deadline := time.Now().Add(30 * time.Second)
	for cluster.listed("team-a") < 3 || cluster.listed("team-b") < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("after 30s, team-a was listed %d times and team-b %d, want 3 each", cluster.listed("team-a"), cluster.listed("team-b"))
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run() = %v, want nil once stopped", err)
	}
	got := logs.String()
	for _, line := range []string{
		"ERROR reconcile namespace team-b: panicked: assignment to entry in nil map (a bug in strata: the log has its stack)",
		"ERROR stack trace of the panic: reconcile namespace team-b: panicked: assignment to entry in nil map",
		"(*panickingCluster).Terraforms",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("logs lack %q:\n%s", line, got)
		}
	}
	if strings.Contains(got, "team-a: panicked") {
		t.Errorf("logs say team-a panicked:\n%s", got)
	}
}
