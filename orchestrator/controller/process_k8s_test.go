//go:build k8s

package controller_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// replica is one `strata controller` process.
type replica struct {
	cmd *exec.Cmd
	out testkit.Buffer
	id  string
}

// startController runs, as strata-kube (k8stest.StrataBinaries), `strata
// controller` on the world's namespace, its runs as runner Jobs in
// strata's image (imported into the cluster), the runner pods on the
// host's network so that they reach the API server and source-controller
// on the loopback. extra flags follow the common ones.
func startController(t *testing.T, w *world, extra ...string) *replica {
	t.Helper()
	image := w.c.StrataImage(t)
	if w.bin == "" {
		w.bin = k8stest.StrataBinaries(t).Kube
	}
	r := &replica{}
	r.cmd = exec.Command(w.bin, append([]string{"controller",
		"--kubeconfig", w.c.Kubeconfig, "--namespace", w.ns, "--state-dir", t.TempDir(),
		"--runners", "jobs", "--runner-image", image, "--runner-image-pull-policy", "Never",
		"--runner-api-server", "127.0.0.1:6443", "--interval", "5s",
	}, extra...)...)
	r.cmd.Env = append(os.Environ(), "STRATA_TOFU="+tofutest.Binary(t))
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	r.id = fmt.Sprintf("%s_%d", host, r.cmd.Process.Pid)
	t.Cleanup(func() {
		_ = r.cmd.Process.Kill()
		_ = r.cmd.Wait()
		if t.Failed() {
			t.Logf("strata controller %s log:\n%s", r.id, r.out.String())
		}
	})
	return r
}

// waitLog waits for the replica's output to contain line.
func (r *replica) waitLog(t *testing.T, line string, timeout time.Duration) {
	t.Helper()
	waitFor(t, timeout, "strata controller "+r.id+" logs "+line, func() (bool, error) { return strings.Contains(r.out.String(), line), nil })
}

// jobWatch records the runner Jobs (labelled jobs.LabelRunner) of a
// namespace as the API server reports them: every Job created, and the
// most that were active (created, not yet finished nor deleted) at once.
type jobWatch struct {
	mu      sync.Mutex
	created []string
	active  map[string]bool
	max     int
	// ended is why the watch ended before the test did, if it did.
	ended error
}

// watchJobs starts recording the runner Jobs of the world's namespace
// until the test ends. It lists them first, from the API server's cache,
// and watches from that list's resource version with client-go's
// RetryWatcher, which resumes after the last event it delivered when the
// API server ends a watch or answers one with a retryable error (a watch
// with no resource version waits for the cache to reach the latest one,
// and on a shared cluster the Jobs' cache can lag behind it for longer
// than the server waits: it ends that watch at once with "Too large
// resource version", and every Job would go unseen). A watch that cannot
// resume (its resource version expired) fails the test: the record would
// miss events.
func watchJobs(t *testing.T, w *world) *jobWatch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	jobsOf := w.c.Client.BatchV1().Jobs(w.ns)
	selector := metav1.ListOptions{LabelSelector: jobs.LabelRunner}
	list, err := jobsOf.List(ctx, metav1.ListOptions{LabelSelector: selector.LabelSelector, ResourceVersion: "0"})
	if err != nil {
		cancel()
		t.Fatalf("list runner jobs of %s: %v", w.ns, err)
	}
	jw := &jobWatch{active: map[string]bool{}}
	for i := range list.Items {
		jw.see(watch.Added, &list.Items[i])
	}
	rw, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, &cache.ListWatch{
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.LabelSelector = selector.LabelSelector
			return jobsOf.Watch(ctx, o)
		},
	})
	if err != nil {
		cancel()
		t.Fatalf("watch runner jobs of %s: %v", w.ns, err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range rw.ResultChan() {
			switch j := ev.Object.(type) {
			case *batchv1.Job:
				jw.see(ev.Type, j)
			default:
				jw.end(fmt.Errorf("%s event: %v", ev.Type, apierrors.FromObject(ev.Object)))
			}
		}
		if ctx.Err() == nil {
			jw.end(errors.New("the watch closed"))
		}
	}()
	t.Cleanup(func() {
		cancel()
		rw.Stop()
		<-done
		if err := jw.Ended(); err != nil {
			t.Errorf("the watch of the runner jobs of %s ended early, its record is incomplete: %v", w.ns, err)
		}
	})
	return jw
}

func (jw *jobWatch) end(err error) {
	jw.mu.Lock()
	defer jw.mu.Unlock()
	if jw.ended == nil {
		jw.ended = err
	}
}

// Ended returns why the watch ended before the test did, or nil.
func (jw *jobWatch) Ended() error {
	jw.mu.Lock()
	defer jw.mu.Unlock()
	return jw.ended
}

func (jw *jobWatch) see(typ watch.EventType, j *batchv1.Job) {
	jw.mu.Lock()
	defer jw.mu.Unlock()
	if typ == watch.Added {
		jw.created = append(jw.created, j.Name)
	}
	switch {
	case typ == watch.Deleted || finished(j):
		delete(jw.active, j.Name)
	case typ == watch.Added || typ == watch.Modified:
		jw.active[j.Name] = true
	}
	jw.max = max(jw.max, len(jw.active))
}

// finished reports whether a Job completed or failed.
func finished(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// Created returns the names of the Jobs created so far.
func (jw *jobWatch) Created() []string {
	jw.mu.Lock()
	defer jw.mu.Unlock()
	return append([]string(nil), jw.created...)
}

// Max returns the most Jobs that were active at once.
func (jw *jobWatch) Max() int {
	jw.mu.Lock()
	defer jw.mu.Unlock()
	return jw.max
}
