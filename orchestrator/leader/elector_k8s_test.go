//go:build k8s

package leader_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"

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

// The election's timings in these tests: short, so that a takeover is
// quick.
const (
	leaseDuration = 4 * time.Second
	renewDeadline = 3 * time.Second
	retryPeriod   = 500 * time.Millisecond
	// gracefulStop is how long a candidate's function takes to return once
	// its context ended, as a leader finishing its work does; the Lease is
	// held meanwhile.
	gracefulStop = time.Second
)

// The limits the tests derive from those timings. client-go waits up to
// retryWait between two tries. margin, stated: two API round trips (read
// the Lease, write it) and a goroutine wake-up on a loaded shared machine
// (2 cores, several test packages), each allowed most of a second.
const (
	retryWait = time.Duration((1 + leaderelection.JitterFactor) * float64(retryPeriod))
	margin    = 2 * time.Second
	// firstTry: a candidate reads (and, free, takes) the Lease on its
	// first try, at once, or one wait later when that try failed.
	firstTry = retryWait + margin
	// takeover: a follower takes a released Lease on its next try. It is
	// shorter than leaseDuration-retryPeriod, the least a follower waiting
	// for the Lease to expire instead would take, so it proves the Lease
	// was released.
	takeover = retryWait + margin
	// lost: the holder notices at its next renewal (one retryPeriod after
	// the last), retries until renewDeadline, then its function stops
	// gracefully.
	lost = retryPeriod + renewDeadline + gracefulStop + margin
)

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
	// from and to are when the function last started and returned.
	mu       sync.Mutex
	from, to time.Time
}

func start(t *testing.T, kubeconfig, ns, id string) *candidate {
	t.Helper()
	e, err := leader.New(leader.Config{
		Kubeconfig: kubeconfig, Namespace: ns, Identity: id,
		LeaseDuration: leaseDuration, RenewDeadline: renewDeadline, RetryPeriod: retryPeriod,
	})
	if err != nil {
		t.Fatalf("leader.New(%q) = %v", id, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &candidate{e: e, cancel: cancel, done: make(chan error, 1)}
	go func() {
		c.done <- e.Lead(ctx, func(ctx context.Context) {
			c.mu.Lock()
			c.from = time.Now()
			c.mu.Unlock()
			c.led.Add(1)
			c.leading.Store(true)
			<-ctx.Done()
			c.cause.Store(context.Cause(ctx))
			// A graceful stop takes a while; the Lease is held meanwhile.
			time.Sleep(gracefulStop)
			c.leading.Store(false)
			c.mu.Lock()
			c.to = time.Now()
			c.mu.Unlock()
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-c.done
	})
	return c
}

// span returns when the candidate's function last started and returned.
func (c *candidate) span() (from, to time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.from, c.to
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
	waitFor(t, firstTry, "a leads", a.leading.Load)
	b := start(t, kubeconfig, ns, "b")
	waitFor(t, firstTry, "b sees a lead", func() bool { _, id := b.e.Leader(); return id == "a" })
	if leading, id := b.e.Leader(); leading || id != "a" {
		t.Errorf("b.Leader() = %v %q, want false \"a\"", leading, id)
	}
	if leading, id := a.e.Leader(); !leading || id != "a" {
		t.Errorf("a.Leader() = %v %q, want true \"a\"", leading, id)
	}

	a.cancel()
	if err := <-a.done; err != nil {
		t.Errorf("a.Lead() after cancel = %v, want nil", err)
	}
	a.done <- nil
	released := time.Now()
	waitFor(t, takeover, "b takes over the released Lease, without waiting for it to expire", b.leading.Load)
	t.Logf("b led %s after a released the Lease (limit %s)", time.Since(released), takeover)
	// One leader at a time: b's function started after a's returned.
	_, aTo := a.span()
	if bFrom, _ := b.span(); bFrom.Before(aTo) {
		t.Errorf("b led at %s, before a's function returned at %s, want one leader at a time", bFrom.Format(time.StampMicro), aTo.Format(time.StampMicro))
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
	waitFor(t, firstTry, "a leads", a.leading.Load)
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
	case <-time.After(lost):
		t.Fatalf("Lead() still running %s after the Lease was taken", lost)
	}
	if a.leading.Load() {
		t.Error("a's function still runs after Lead returned")
	}
	if cause, _ := a.cause.Load().(error); !errors.Is(cause, leader.ErrLost) {
		t.Errorf("context.Cause() of the function's context = %v, want ErrLost", cause)
	}
}
