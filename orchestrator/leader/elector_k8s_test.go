//go:build k8s

package leader_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/orchestrator/leader"
)

// cluster returns the admin kubeconfig of the cluster `make test-k8s`
// starts, a client, and a fresh namespace removed after the test.
func cluster(t *testing.T) (string, kubernetes.Interface, string) {
	t.Helper()
	c := k8stest.Get(t)
	return c.Kubeconfig, c.Client, c.Namespace(t, "strata-leader")
}

// candidate is one Elector taking part, its function counting how many
// times it led and whether it leads now.
type candidate struct {
	e       *leader.Elector
	cancel  context.CancelFunc
	done    chan error
	leading atomic.Bool
	led     atomic.Int32
	// cause is why the function's context ended.
	cause atomic.Value
}

func start(t *testing.T, kubeconfig, ns, id string) *candidate {
	t.Helper()
	e, err := leader.New(leader.Config{
		Kubeconfig: kubeconfig, Namespace: ns, Identity: id,
		LeaseDuration: 4 * time.Second, RenewDeadline: 3 * time.Second, RetryPeriod: 500 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("leader.New(%q) = %v", id, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &candidate{e: e, cancel: cancel, done: make(chan error, 1)}
	go func() {
		c.done <- e.Lead(ctx, func(ctx context.Context) {
			c.led.Add(1)
			c.leading.Store(true)
			<-ctx.Done()
			c.cause.Store(context.Cause(ctx))
			// A graceful stop takes a while; the Lease is held meanwhile.
			time.Sleep(time.Second)
			c.leading.Store(false)
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-c.done
	})
	return c
}

// waitFor polls cond for up to limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLeaseInCluster has two candidates share one Lease: exactly one
// leads, the other sees it; when the leader stops, it releases the Lease
// after its function returned, and the other takes over at once.
func TestLeaseInCluster(t *testing.T) {
	kubeconfig, cs, ns := cluster(t)
	a := start(t, kubeconfig, ns, "a")
	waitFor(t, 10*time.Second, "a leads", a.leading.Load)
	b := start(t, kubeconfig, ns, "b")
	waitFor(t, 10*time.Second, "b sees a lead", func() bool { _, id := b.e.Leader(); return id == "a" })
	if leading, id := b.e.Leader(); leading || id != "a" {
		t.Errorf("b.Leader() = %v %q, want false \"a\"", leading, id)
	}
	if leading, id := a.e.Leader(); !leading || id != "a" {
		t.Errorf("a.Leader() = %v %q, want true \"a\"", leading, id)
	}

	stopped := time.Now()
	a.cancel()
	// While a stops gracefully, b does not lead.
	time.Sleep(500 * time.Millisecond)
	if b.leading.Load() {
		t.Errorf("b leads while a still stops, want one leader at a time")
	}
	if err := <-a.done; err != nil {
		t.Errorf("a.Lead() after cancel = %v, want nil", err)
	}
	a.done <- nil
	waitFor(t, 3*time.Second, "b takes over a released Lease well within the lease duration", b.leading.Load)
	if took := time.Since(stopped); took > 4*time.Second {
		t.Errorf("b led %s after a stopped, want less than the lease duration", took)
	}
	lease, err := cs.CoordinationV1().Leases(ns).Get(context.Background(), leader.DefaultName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := *lease.Spec.HolderIdentity; got != "b" {
		t.Errorf("Lease holder = %q, want \"b\"", got)
	}
	if n := a.led.Load() + b.led.Load(); n != 2 {
		t.Errorf("times led = %d, want 2", n)
	}
}

// TestLostLeaseInCluster takes the Lease away from its holder: its
// function's context ends, and Lead returns ErrLost.
func TestLostLeaseInCluster(t *testing.T) {
	kubeconfig, cs, ns := cluster(t)
	a := start(t, kubeconfig, ns, "a")
	waitFor(t, 10*time.Second, "a leads", a.leading.Load)
	ctx := context.Background()
	lease, err := cs.CoordinationV1().Leases(ns).Get(ctx, leader.DefaultName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	thief := "thief"
	lease.Spec.HolderIdentity = &thief
	now := metav1.NewMicroTime(time.Now().Add(time.Hour))
	lease.Spec.RenewTime = &now
	if _, err := cs.CoordinationV1().Leases(ns).Update(ctx, lease, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-a.done:
		if !errors.Is(err, leader.ErrLost) {
			t.Errorf("Lead() after the Lease was taken = %v, want ErrLost", err)
		}
		a.done <- err
	case <-time.After(15 * time.Second):
		t.Fatal("Lead() still running 15s after the Lease was taken")
	}
	if a.leading.Load() {
		t.Error("a's function still runs after Lead returned")
	}
	if cause, _ := a.cause.Load().(error); !errors.Is(cause, leader.ErrLost) {
		t.Errorf("context.Cause() of the function's context = %v, want ErrLost", cause)
	}
}
