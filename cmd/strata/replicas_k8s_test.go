//go:build k8s && kube

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/util/retry"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// The replicas' election timings: short, so that a failover is quick.
const (
	leaseDuration = 4 * time.Second
	renewDeadline = 3 * time.Second
	retryPeriod   = 500 * time.Millisecond
)

// takeoverBound is the longest a follower may take to lead once the
// leader died without releasing the Lease, derived from the election's
// timings: client-go waits between two tries up to (1+JitterFactor)
// retry periods, so the follower sees the dead leader's last renewal up to
// one such wait late, counts the lease duration from that sight, and
// takes the expired Lease on its next try, one such wait later.
// takeoverMargin, stated: two API round trips and a process wake-up on a
// loaded shared machine (2 cores, several test packages), where one
// measured takeover overran the bare bound by 20 ms.
const (
	takeoverBound  = leaseDuration + 2*time.Duration((1+leaderelection.JitterFactor)*float64(retryPeriod))
	takeoverMargin = time.Second
)

// slowCreate is how long the slow resource of slowWorker takes to create.
const slowCreate = 8 * time.Second

// lostExit is the longest a leader whose Lease was taken may take to exit:
// it notices at its next renewal (one retry period after the last) and
// gives up after the renew deadline, then lets the apply in flight finish
// (the slow resource, at most slowCreate more) and records it.
// lostMargin, stated: tofu's own apply and state write around the slow
// resource, and the run's record, on a loaded shared machine.
const (
	lostExit   = retryPeriod + renewDeadline + slowCreate + lostMargin
	lostMargin = 30 * time.Second
)

// leaseCluster returns the admin kubeconfig of the cluster `make test-k8s`
// starts and a fresh namespace for the Lease, removed after the test.
func leaseCluster(t *testing.T) (kubeconfig, ns string, cs kubernetes.Interface) {
	t.Helper()
	c := k8stest.Get(t)
	return c.Kubeconfig, c.Namespace(t, "strata-replicas"), c.Client
}

// replicas is a demo repository and one state directory that several
// `strata reconcile` processes share through one Lease.
type replicas struct {
	t              *testing.T
	bin, tofu      string
	env, state     string
	kubeconfig, ns string
	cs             kubernetes.Interface
	slow           string
	host           string
}

func newReplicas(t *testing.T) *replicas {
	t.Helper()
	kubeconfig, ns, cs := leaseCluster(t)
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	root := demoRepo(t)
	return &replicas{
		t: t, bin: buildStrata(t), tofu: tofutest.Binary(t),
		env: filepath.Join(root, "environments", "demo", "dev"), state: t.TempDir(),
		kubeconfig: kubeconfig, ns: ns, cs: cs,
		slow: filepath.Join(t.TempDir(), "slow.log"), host: host,
	}
}

// slowWorker adds to the worker stack a resource whose creation takes
// slowCreate and logs its start and end to $STRATA_TEST_SLOW: a resource
// created twice logs two starts.
func (r *replicas) slowWorker() {
	r.t.Helper()
	p := filepath.Join(r.env, "..", "..", "..", "flux-apps", "service-stacks", "worker", "terraform", "slow.tf")
	slow := fmt.Sprintf(`resource "terraform_data" "slow" {
  input = var.queue
  provisioner "local-exec" {
    command = "echo start >> \"$STRATA_TEST_SLOW\"; sleep %d; echo done >> \"$STRATA_TEST_SLOW\""
  }
}
`, int(slowCreate.Seconds()))
	if err := os.WriteFile(p, []byte(slow), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// replica is one running `strata reconcile`.
type replica struct {
	t    *testing.T
	cmd  *exec.Cmd
	out  *testkit.Buffer
	addr string
	// id is its identity in the Lease.
	id string
}

func (r *replicas) start(extra ...string) *replica {
	r.t.Helper()
	addr := testkit.FreeAddr(r.t)
	cmd := exec.Command(r.bin, "reconcile", r.env, "--state-dir", r.state, "--listen", addr, "--interval", "1s",
		"--leader-elect", "--kubeconfig", r.kubeconfig, "--leader-elect-namespace", r.ns,
		"--leader-elect-lease-duration", leaseDuration.String(), "--leader-elect-renew-deadline", renewDeadline.String(),
		"--leader-elect-retry-period", retryPeriod.String())
	cmd.Args = append(cmd.Args, extra...)
	cmd.Env = append(os.Environ(), "STRATA_TOFU="+r.tofu, "STRATA_TEST_SLOW="+r.slow)
	out := &testkit.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	p := &replica{t: r.t, cmd: cmd, out: out, addr: addr, id: fmt.Sprintf("%s_%d", r.host, cmd.Process.Pid)}
	r.t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return p
}

// waitLog waits up to limit for the replica's output to contain s.
func (p *replica) waitLog(s string, limit time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(limit)
	for !strings.Contains(p.out.String(), s) {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s printed, in %s, no %q:\n%s", p.id, limit, s, p.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// get answers GET path, or 0 while the replica does not serve.
func (p *replica) get(path string) (int, string) {
	resp, err := http.Get("http://" + p.addr + path)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// waitReady waits up to limit for /readyz to answer 200.
func (p *replica) waitReady(limit time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		code, body := p.get("/readyz")
		if code == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("GET /readyz of %s = %d %q after %s, want 200\n%s", p.id, code, body, limit, p.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop sends SIGTERM and waits for the exit code.
func (p *replica) stop() int {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	_ = p.cmd.Wait()
	return p.cmd.ProcessState.ExitCode()
}

// history reads every run of the environment from the state directory.
func (r *replicas) history() []historyRun {
	r.t.Helper()
	out, errOut, code := strata(r.t, "history", r.env, "--state-dir", r.state, "-o", "json")
	if code != 0 {
		r.t.Fatalf("strata history = %d %s", code, errOut)
	}
	var runs []historyRun
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		r.t.Fatalf("strata history -o json: %v\n%s", err, out)
	}
	return runs
}

type historyRun struct {
	Number     int       `json:"number"`
	Stack      string    `json:"stack"`
	Result     string    `json:"result"`
	StartedAt  time.Time `json:"startedAt"`
	DurationMs int64     `json:"durationMs"`
}

// checkNoOverlap fails when two runs of one stack overlap in time.
func checkNoOverlap(t *testing.T, runs []historyRun) {
	t.Helper()
	if len(runs) == 0 {
		t.Fatal("strata history = no run, want the replicas' runs")
	}
	for i, a := range runs {
		for _, b := range runs[i+1:] {
			if a.Stack != b.Stack {
				continue
			}
			aEnd := a.StartedAt.Add(time.Duration(a.DurationMs) * time.Millisecond)
			bEnd := b.StartedAt.Add(time.Duration(b.DurationMs) * time.Millisecond)
			if a.StartedAt.Before(bEnd) && b.StartedAt.Before(aEnd) {
				t.Errorf("runs #%d and #%d of stack %s overlap (%s+%dms, %s+%dms), want one at a time",
					a.Number, b.Number, a.Stack, a.StartedAt, a.DurationMs, b.StartedAt, b.DurationMs)
			}
		}
	}
}

// TestReplicasInCluster runs two `strata reconcile` on one state
// directory and one Lease: only the leader runs passes, the follower says
// so on /readyz, and takes over at once when the leader stops.
func TestReplicasInCluster(t *testing.T) {
	r := newReplicas(t)
	a := r.start()
	a.waitLog("leader election: "+a.id+" leads, holding the lease "+r.ns+"/strata", time.Minute)
	b := r.start()
	b.waitLog("leader election: "+a.id+" leads; "+b.id+" follows", time.Minute)
	a.waitReady(3 * time.Minute)
	// A few passes of the leader while the follower watches.
	a.waitLog("reconcile #3 of demo/dev started", time.Minute)

	tests := []struct {
		path     string
		wantCode int
		wantBody string
	}{
		{"/healthz", http.StatusOK, "ok\n"},
		{"/readyz", http.StatusServiceUnavailable, "not the leader (leader: " + a.id + ")\n"},
	}
	for _, tt := range tests {
		if code, body := b.get(tt.path); code != tt.wantCode || body != tt.wantBody {
			t.Errorf("GET %s of the follower = %d %q, want %d %q", tt.path, code, body, tt.wantCode, tt.wantBody)
		}
	}
	if strings.Contains(b.out.String(), "reconcile #") {
		t.Errorf("the follower ran a reconcile while the leader lived:\n%s", b.out.String())
	}

	// The leader finishes the pass in flight before it releases the Lease
	// and exits: the follower's time is counted from that exit.
	if code := a.stop(); code != 0 {
		t.Errorf("the leader stopped with SIGTERM exited %d, want 0\n%s", code, a.out.String())
	}
	exited := time.Now()
	if out := a.out.String(); !strings.Contains(out, "released the lease") {
		t.Errorf("the leader stopped with SIGTERM did not release the lease:\n%s", out)
	}
	b.waitLog("leader election: "+b.id+" leads", leaseDuration)
	if took := time.Since(exited); took >= leaseDuration {
		t.Errorf("the follower led %s after the leader exited, want it at once, within the lease duration (%s): the Lease was released", took, leaseDuration)
	}
	b.waitReady(time.Minute)
	if code := b.stop(); code != 0 {
		t.Errorf("the new leader stopped with SIGTERM exited %d, want 0\n%s", code, b.out.String())
	}
	checkNoOverlap(t, r.history())
}

// waitSlowStart waits for the slow resource's creation to start.
func (r *replicas) waitSlowStart(leader *replica) {
	r.t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if s, _ := os.ReadFile(r.slow); strings.Contains(string(s), "start") {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the slow resource's apply never started:\n%s", leader.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkSlowOnce fails unless the slow resource was created exactly once.
func (r *replicas) checkSlowOnce() {
	r.t.Helper()
	s, err := os.ReadFile(r.slow)
	if err != nil {
		r.t.Fatal(err)
	}
	if got, want := strings.Fields(string(s)), []string{"start", "done"}; strings.Join(got, " ") != strings.Join(want, " ") {
		r.t.Errorf("the slow resource's provisioner logged %q, want %q: created once, not applied twice", got, want)
	}
}

// TestLostLeaseInCluster takes the Lease from the leader in the middle of
// an apply: the leader starts no further run, lets the apply in flight
// finish within its shutdown grace, records it, and exits 1 saying it
// lost the Lease.
func TestLostLeaseInCluster(t *testing.T) {
	r := newReplicas(t)
	r.slowWorker()
	a := r.start()
	a.waitLog("leader election: "+a.id+" leads", time.Minute)
	r.waitSlowStart(a)

	ctx := context.Background()
	thief := "another-strata"
	// The leader renews the Lease meanwhile: steal it again on a conflict.
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		lease, err := r.cs.CoordinationV1().Leases(r.ns).Get(ctx, "strata", metav1.GetOptions{})
		if err != nil {
			return err
		}
		renewed := metav1.NewMicroTime(time.Now().Add(time.Hour))
		lease.Spec.HolderIdentity, lease.Spec.RenewTime = &thief, &renewed
		_, err = r.cs.CoordinationV1().Leases(r.ns).Update(ctx, lease, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = a.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(lostExit):
		t.Fatalf("the leader still runs %s after it lost the Lease:\n%s", lostExit, a.out.String())
	}
	out := a.out.String()
	if code := a.cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("the leader that lost the Lease exited %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		"the apply in flight has 5m0s to finish",
		"[worker] run #1 finished",
		"reconcile #1 of demo/dev was interrupted by leader election: " + a.id + " lost the lease " + r.ns + "/strata",
		"strata: leader election: " + a.id + " lost the lease " + r.ns + "/strata",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the leader that lost the Lease printed no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "reconcile #2 of demo/dev started") {
		t.Errorf("the leader started a reconcile after it lost the Lease:\n%s", out)
	}
	r.checkSlowOnce()
}

// TestFailoverInCluster kills the leader (kill -9) in the middle of an
// apply: the follower takes over within the lease duration, adopts the
// apply the dead leader's tofu finished instead of applying it again, and
// completes the pass.
func TestFailoverInCluster(t *testing.T) {
	r := newReplicas(t)
	r.slowWorker()
	a := r.start()
	a.waitLog("leader election: "+a.id+" leads", time.Minute)
	b := r.start()
	b.waitLog("leader election: "+a.id+" leads; "+b.id+" follows", time.Minute)
	r.waitSlowStart(a)
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	_ = a.cmd.Wait()

	b.waitLog("leader election: "+b.id+" leads", takeoverBound+takeoverMargin+time.Second)
	if took, limit := time.Since(killed), takeoverBound+takeoverMargin; took > limit {
		t.Errorf("the follower led %s after the leader was killed, want within the lease duration and two jittered retries (%s) plus a margin (%s): %s", took, takeoverBound, takeoverMargin, limit)
	}
	b.waitReady(3 * time.Minute)
	b.waitLog("the apply went on after strata stopped and completed", time.Second)
	if code := b.stop(); code != 0 {
		t.Errorf("the new leader stopped with SIGTERM exited %d, want 0\n%s", code, b.out.String())
	}
	r.checkSlowOnce()
	checkNoOverlap(t, r.history())
}
