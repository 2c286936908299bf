//go:build k8s

package jobs

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source"
)

// world is a namespace ready for runner Jobs: strata's image, the
// tf-runner service account with what tofu's kubernetes backend needs, the
// seed's PriorityClass, and the stack's code served where the runner pods
// (on the host's network) fetch it.
type world struct {
	c      *k8stest.Cluster
	ns     string
	image  string
	source source.Artifact
	logs   testkit.Buffer
}

func newWorld(t *testing.T) *world {
	c := k8stest.Get(t)
	w := &world{c: c, ns: c.Namespace(t, "strata-jobs"), image: c.StrataImage(t)}
	c.RunnerAccount(t, w.ns, DefaultServiceAccount)
	url, digest := testkit.ServeTarball(t, "testdata/stack")
	w.source = source.Artifact{URL: url, Digest: digest}
	return w
}

// launcher is a Launcher as strata controller makes one, its run log in
// the seed's format in w's log.
func (w *world) launcher(t *testing.T, maxRunners int) *Launcher {
	l, err := New(Config{
		Kubeconfig:      w.c.Kubeconfig,
		Image:           w.image,
		ImagePullPolicy: corev1.PullNever,
		MaxRunners:      maxRunners,
		APIServer:       "127.0.0.1:6443",
		Poll:            250 * time.Millisecond,
		Logger:          runlog.New(&w.logs, nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func (w *world) log() string { return w.logs.String() }

// executor is the Job-backed executor strata controller runs with.
func (w *world) executor(t *testing.T, maxRunners int) *Executor {
	return &Executor{
		Launcher: w.launcher(t, maxRunners),
		Settings: environment.Settings{Contracts: environment.ContractSettings{Store: environment.ContractsLocal, Prefix: "/configuration"}},
		Timeout:  3 * time.Minute,
		HashKey:  testKey,
	}
}

// request is the controller's request for an apply of stack.
func (w *world) request(stack string) controller.Request {
	return controller.Request{
		Request: runner.Request{
			Operation: history.OperationApply, Client: "acme", Env: "dev", Class: "non-prod",
			Stack:    &environment.Stack{Name: stack, ApprovePlan: "auto", Vars: map[string]any{"name": stack}},
			Artifact: w.source,
		},
		Namespace: w.ns, Name: stack,
	}
}

// applied checks that an outcome is stack's first run, applied.
func applied(t *testing.T, stack string, o controller.Outcome, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("Execute(%s) = %v", stack, err)
	}
	res, runErr := o.Unpack()
	if runErr != nil || res.Run.Result != history.ResultApplied || res.Run.Number != 1 || res.Stack != stack {
		t.Errorf("Execute(%s) = %s run #%d of %q, %v, want run #1 of %s applied", stack, res.Run.Result, res.Run.Number, res.Stack, runErr, stack)
	}
}

// TestRunnerJobInCluster runs one stack as a runner Job: tofu applies it in
// the pod, its state is the Tofu Controller's Secret, the run's lines
// reach the launcher's log in the seed's format, the outcome comes back;
// the finished Job stays, with only its backstop TTL (a day), until it is
// released, and then no Job, pod or request Secret is left.
func TestRunnerJobInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := w.executor(t, 10)
	req := w.request("network")
	o, err := e.Execute(ctx, req)
	applied(t, "network", o, err)
	log := w.log()
	for _, want := range []string{
		"INFO [network] run #1 started {\"operation\": \"apply\"",
		"INFO [network] plan: create terraform_data.this",
		"INFO [network] apply complete: 1 added, 0 changed, 0 destroyed",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("launcher log lacks %q:\n%s", want, log)
		}
	}
	state, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, "tfstate-default-network", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("state secret: %v", err)
	}
	if state.Labels["tfstate"] != "true" {
		t.Errorf("state secret labels = %v, want tofu's kubernetes backend's (tfstate=true)", state.Labels)
	}
	// The pod recorded its run in the namespace's records, which outlive it.
	recs, err := kuberecords.New(kuberecords.Config{Kubeconfig: w.c.Kubeconfig, Namespace: w.ns})
	if err != nil {
		t.Fatal(err)
	}
	if last, ok, err := recs.Last(ctx, "acme", "dev", "network"); err != nil || !ok || last.Number != 1 || last.Result != history.ResultApplied {
		t.Errorf("run recorded in namespace %s = #%d %s, %v, %v, want #1 applied", w.ns, last.Number, last.Result, ok, err)
	}
	job := Name("network", RunKey(testKey, req))
	if o.Runner != job {
		t.Errorf("Execute(network).Runner = %q, want its job %s", o.Runner, job)
	}
	j, err := w.c.Client.BatchV1().Jobs(w.ns).Get(ctx, job, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("job %s before its release: %v, want it there", job, err)
	}
	if got, want := j.Spec.TTLSecondsAfterFinished, int32(DefaultUnreadTTL/time.Second); got == nil || *got != want {
		t.Errorf("job %s ttlSecondsAfterFinished = %v, want the backstop %d (DefaultUnreadTTL)", job, got, want)
	}
	if ok, err := e.Adoptable(ctx, req); err != nil || !ok {
		t.Errorf("Adoptable(network) before its release = %v, %v, want true", ok, err)
	}
	if err := e.Release(ctx, req, o); err != nil {
		t.Fatalf("Release(network) = %v", err)
	}
	waitGone(t, ctx, w, job)
}

// waitGone waits until the Job, its pods and its request Secret are gone.
func waitGone(t *testing.T, ctx context.Context, w *world, job string) {
	t.Helper()
	for {
		_, jerr := w.c.Client.BatchV1().Jobs(w.ns).Get(ctx, job, metav1.GetOptions{})
		_, serr := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, job, metav1.GetOptions{})
		pods, perr := w.c.Client.CoreV1().Pods(w.ns).List(ctx, metav1.ListOptions{LabelSelector: "batch.kubernetes.io/job-name=" + job})
		if apierrors.IsNotFound(jerr) && apierrors.IsNotFound(serr) && perr == nil && len(pods.Items) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s: still there after the run (job: %v, secret: %v, pods: %d)", job, jerr, serr, len(pods.Items))
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// TestUnreadTTLInCluster: a finished runner Job whose outcome no leader
// records is removed by Kubernetes' ttl-after-finished controller at its
// backstop TTL (Config.UnreadTTL, a few seconds here), with its pod and
// its request Secret; the leader that followed it had its outcome all the
// same, and its release finds nothing left to do.
func TestUnreadTTLInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := w.executor(t, 10)
	e.Launcher.cfg.UnreadTTL = 3 * time.Second
	req := w.request("network")
	job := Name("network", RunKey(testKey, req))
	o, err := e.Execute(ctx, req)
	applied(t, "network", o, err)
	// Never released: its leader is gone, and no other takes over.
	waitGone(t, ctx, w, job)
	if err := e.Release(ctx, req, o); err != nil {
		t.Errorf("Release(network) after its backstop TTL removed the job = %v, want nil", err)
	}
	if ok, err := e.Adoptable(ctx, req); err != nil || ok {
		t.Errorf("Adoptable(network) after its backstop TTL = %v, %v, want false", ok, err)
	}
}

// TestAdoptInFlightJobInCluster is the launcher's part of a leader's
// failover: a leader starts a run's Job and dies; the next leader asks for
// the same run and adopts the Job in flight: one Job, one pod, one apply.
func TestAdoptInFlightJobInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	jobsSeen := watchJobs(t, ctx, w)

	req := w.request("network")
	first := w.executor(t, 10)
	firstCtx, kill := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := first.Execute(firstCtx, req); done <- err }()
	// The first leader dies once its runner pod started.
	for {
		pods, err := w.c.Client.CoreV1().Pods(w.ns).List(ctx, metav1.ListOptions{LabelSelector: LabelObject + "=network"})
		if err == nil && len(pods.Items) > 0 && started(&pods.Items[0]) {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the runner pod did not start")
		case <-time.After(100 * time.Millisecond):
		}
	}
	kill()
	if err := <-done; err == nil {
		t.Fatal("Execute() of the killed leader = nil, want the cancellation")
	}

	o, err := w.executor(t, 10).Execute(ctx, req)
	applied(t, "network", o, err)
	job := Name("network", RunKey(testKey, req))
	if !strings.Contains(w.log(), "adopting this run's runner job "+job) {
		t.Errorf("log lacks the adoption of %s:\n%s", job, w.log())
	}
	if got := jobsSeen(); len(got) != 1 {
		t.Errorf("jobs created = %v, want one", got)
	}
}

// TestAdoptFinishedJobInCluster is the launcher's part of a failover in
// which the runner Job finishes during the takeover: a leader starts a
// run's Job and dies; the Job finishes before the next leader looks. The
// Job's outcome is unread, so the next leader adopts it (Adoptable, then
// Execute) and reads the outcome the pod left, rather than letting
// skip-unchanged answer from the history the pod wrote. Read, it is still
// adoptable: a leader lost before it recorded the outcome leaves it to
// the next. Once released, the Job is removed, or marked read and kept
// for the TTL when the object keeps its runner pod, and is no longer
// adoptable.
func TestAdoptFinishedJobInCluster(t *testing.T) {
	w := newWorld(t)
	keep := false
	tests := []struct {
		name    string
		cleanup *bool
	}{
		{"cleaned up", nil},
		{"kept (alwaysCleanupRunnerPod: false)", &keep},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			stack := fmt.Sprintf("network-%d", i)
			req := w.request(stack)
			req.Spec.AlwaysCleanupRunnerPod = tt.cleanup
			job := Name(stack, RunKey(testKey, req))

			first := w.executor(t, 10)
			firstCtx, kill := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { _, err := first.Execute(firstCtx, req); done <- err }()
			// The first leader dies once its runner pod started, and the
			// Job finishes before the next leader looks.
			waitJob(t, ctx, w, job, func(j *batchv1.Job) bool {
				pods, err := w.c.Client.CoreV1().Pods(w.ns).List(ctx, metav1.ListOptions{LabelSelector: "batch.kubernetes.io/job-name=" + job})
				return err == nil && len(pods.Items) > 0 && started(&pods.Items[0])
			})
			kill()
			if err := <-done; err == nil {
				t.Fatal("Execute() of the killed leader = nil, want the cancellation")
			}
			waitJob(t, ctx, w, job, finished)

			next := w.executor(t, 10)
			if ok, err := next.Adoptable(ctx, req); err != nil || !ok {
				t.Fatalf("Adoptable(%s) with its job finished and unread = %v, %v, want true", stack, ok, err)
			}
			if ok, err := next.Adoptable(ctx, w.request("other")); err != nil || ok {
				t.Errorf("Adoptable(other) = %v, %v, want false: no job of it", ok, err)
			}
			o, err := next.Execute(ctx, req)
			applied(t, stack, o, err)
			if want := "adopting this run's runner job " + job; !strings.Contains(w.log(), want) {
				t.Errorf("log lacks %q:\n%s", want, w.log())
			}
			if ok, err := next.Adoptable(ctx, req); err != nil || !ok {
				t.Errorf("Adoptable(%s) once its outcome was read, not released = %v, %v, want true", stack, ok, err)
			}
			if err := next.Release(ctx, req, o); err != nil {
				t.Fatalf("Release(%s) = %v", stack, err)
			}
			if ok, err := next.Adoptable(ctx, req); err != nil || ok {
				t.Errorf("Adoptable(%s) once released = %v, %v, want false", stack, ok, err)
			}
			if tt.cleanup == nil {
				waitGone(t, ctx, w, job)
				return
			}
			j, err := w.c.Client.BatchV1().Jobs(w.ns).Get(ctx, job, metav1.GetOptions{})
			if err != nil || j.Annotations[AnnotationRead] != "true" {
				t.Fatalf("kept job %s: %v, annotations %v, want %s=true", job, err, j.GetAnnotations(), AnnotationRead)
			}
			// Kept for the TTL from its release: at least DefaultTTL from
			// when it finished.
			if ttl := j.Spec.TTLSecondsAfterFinished; ttl == nil || *ttl < int32(DefaultTTL/time.Second) {
				t.Errorf("kept job %s ttlSecondsAfterFinished = %v, want %d or more", job, ttl, int32(DefaultTTL/time.Second))
			}
		})
	}
}

// waitJob waits until the Job exists and cond holds of it.
func waitJob(t *testing.T, ctx context.Context, w *world, name string, cond func(*batchv1.Job) bool) {
	t.Helper()
	for {
		j, err := w.c.Client.BatchV1().Jobs(w.ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil && cond(j) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s: not there as wanted (last error: %v)", name, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// watchJobs records every runner Job created in w's namespace, and returns
// the names seen so far.
func watchJobs(t *testing.T, ctx context.Context, w *world) func() []string {
	var mu sync.Mutex
	var names []string
	wi, err := w.c.Client.BatchV1().Jobs(w.ns).Watch(ctx, metav1.ListOptions{LabelSelector: LabelRunner + "=true", ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wi.Stop)
	go func() {
		for ev := range wi.ResultChan() {
			if j, ok := ev.Object.(*batchv1.Job); ok && ev.Type == watch.Added {
				mu.Lock()
				names = append(names, j.Name)
				mu.Unlock()
			}
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), names...)
	}
}

// TestMaxRunnersInCluster is the launcher's part of the test 5:
// with a bound of 2 and ten stacks ready at once, never more than two
// runner Jobs are in flight, and all ten apply. The test through `strata
// controller --max-runners 2` is the controller's
// TestControllerMaxRunnersInCluster.
func TestMaxRunnersInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	const maxRunners = 2
	wi, err := w.c.Client.BatchV1().Jobs(w.ns).Watch(ctx, metav1.ListOptions{LabelSelector: LabelRunner + "=true", ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer wi.Stop()
	var mu sync.Mutex
	most, inFlight := 0, map[string]bool{}
	go func() {
		for ev := range wi.ResultChan() {
			j, ok := ev.Object.(*batchv1.Job)
			if !ok {
				continue
			}
			mu.Lock()
			switch {
			case ev.Type == watch.Deleted || finished(j):
				delete(inFlight, j.Name)
			default:
				inFlight[j.Name] = true
			}
			most = max(most, len(inFlight))
			mu.Unlock()
		}
	}()

	e := w.executor(t, maxRunners)
	var wg sync.WaitGroup
	outs := make([]controller.Outcome, 10)
	errs := make([]error, 10)
	for i := range 10 {
		wg.Go(func() { outs[i], errs[i] = e.Execute(ctx, w.request(fmt.Sprintf("stack-%02d", i))) })
	}
	wg.Wait()
	for i := range outs {
		applied(t, fmt.Sprintf("stack-%02d", i), outs[i], errs[i])
	}
	mu.Lock()
	defer mu.Unlock()
	if most > maxRunners || most == 0 {
		t.Errorf("most runner jobs in flight at once = %d, want 1 to %d", most, maxRunners)
	}
	t.Logf("most runner jobs in flight at once: %d", most)
	if !strings.Contains(w.log(), "waiting for a runner: 2 runner jobs are in flight") {
		t.Errorf("log never says a run waited for a runner:\n%s", w.log())
	}
}

// TestPodNotCreatedInCluster: a runner Job whose pod the API server
// refuses (its PriorityClass does not exist) is not silent until its
// deadline: the launcher logs the job controller's reason while it waits,
// and tells the request's Progress, which the controller writes in the
// object's status; once the PriorityClass exists, the job controller
// creates the pod, Progress is told it started, and the run applies.
func TestPodNotCreatedInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	class := "strata-late-" + w.ns
	req := w.request("network")
	req.Spec.RunnerPodTemplate.Spec.PriorityClassName = class
	job := Name("network", RunKey(testKey, req))
	var mu sync.Mutex
	var told []controller.Progress
	req.Progress = func(p controller.Progress) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, p)
	}
	progress := func() []controller.Progress {
		mu.Lock()
		defer mu.Unlock()
		return append([]controller.Progress(nil), told...)
	}
	type result struct {
		o   controller.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		o, err := w.executor(t, 10).Execute(ctx, req)
		done <- result{o, err}
	}()
	want := "cannot create its pod yet: "
	for !strings.Contains(w.log(), want) || len(progress()) == 0 {
		select {
		case r := <-done:
			t.Fatalf("Execute(a pod with a missing PriorityClass) = %v before its reason was logged:\n%s", r.err, w.log())
		case <-ctx.Done():
			t.Fatalf("log lacks %q, or Progress was not told, after %s:\n%s", want, "5m", w.log())
		case <-time.After(250 * time.Millisecond):
		}
	}
	if !strings.Contains(w.log(), class) {
		t.Errorf("log does not name the missing PriorityClass:\n%s", w.log())
	}
	first := progress()[0]
	if first.Runner != job || first.Reason != "FailedCreate" || !strings.Contains(first.Message, class) {
		t.Errorf("Progress told %+v, want runner %s, reason FailedCreate, a message naming %s", first, job, class)
	}

	// The cause fixed, the run starts and applies.
	w.c.PriorityClassNamed(t, class)
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		t.Fatalf("Execute(network) did not end once its PriorityClass %s exists:\n%s", class, w.log())
	}
	applied(t, "network", r.o, r.err)
	last := progress()[len(progress())-1]
	if last != (controller.Progress{Runner: job}) {
		t.Errorf("last Progress = %+v, want the start of runner %s (no reason)", last, job)
	}
}

// TestPodRefusedGivenUpInCluster: a runner Job whose pod stays refused
// (its PriorityClass never exists) for Config.RefusedTimeout is deleted
// with its request Secret, and the run is given up: a failed outcome,
// marked RunnerPodRefused, with the refusal as its error, recorded in the
// executor's Refusals history, since no pod recorded it.
func TestPodRefusedGivenUpInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	class := "strata-never-" + w.ns
	req := w.request("network")
	req.Spec.RunnerPodTemplate.Spec.PriorityClassName = class
	job := Name("network", RunKey(testKey, req))
	store, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	e := w.executor(t, 10)
	e.Launcher.cfg.RefusedTimeout = 3 * time.Second
	e.Refusals = store
	o, err := e.Execute(ctx, req)
	if err != nil {
		t.Fatalf("Execute(a pod refused for good) = %v, want a failed outcome", err)
	}
	res, runErr := o.Unpack()
	if !o.RunnerPodRefused || runErr == nil || res.Run.Result != history.ResultFailed {
		t.Fatalf("Execute(a pod refused for good) = %s, RunnerPodRefused %v, %v, want failed, refused", res.Run.Result, o.RunnerPodRefused, runErr)
	}
	for _, want := range []string{"runner job " + w.ns + "/" + job + ": the API server refused its pod for ", "(FailedCreate)", class, "nothing ran"} {
		if !strings.Contains(runErr.Error(), want) {
			t.Errorf("Execute(a pod refused for good) error = %q, want it to contain %q", runErr, want)
		}
	}
	waitGone(t, ctx, w, job)
	last, ok, err := store.Last(ctx, "acme", "dev", "network")
	if err != nil || !ok || last.Number != 1 || last.Result != history.ResultFailed || last.Error != runErr.Error() || last.Note != controller.NoteRunnerPodRefused {
		t.Errorf("recorded run = %+v, %v, %v, want run #1 failed with the refusal, noted %q", last, ok, err, controller.NoteRunnerPodRefused)
	}
	if want := "the run starts once that is fixed, or is given up 3s after the job was created"; !strings.Contains(w.log(), want) {
		t.Errorf("log lacks %q:\n%s", want, w.log())
	}
}

// TestReleaseOrphansInCluster: the finished Jobs of an object that is
// gone (deleted while its leader was lost, so that no pass records its
// outcome) are deleted; those of the objects still there are left to be
// adopted.
func TestReleaseOrphansInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e := w.executor(t, 10)
	stacks := []string{"network", "gone"}
	outs := make([]controller.Outcome, len(stacks))
	errs := make([]error, len(stacks))
	var wg sync.WaitGroup
	for i, stack := range stacks {
		wg.Go(func() { outs[i], errs[i] = e.Execute(ctx, w.request(stack)) })
	}
	wg.Wait()
	for i, stack := range stacks {
		applied(t, stack, outs[i], errs[i])
	}
	gone := func(_ context.Context, object string) (bool, error) {
		return object != "network" && object != "app", nil
	}
	if err := e.ReleaseOrphans(ctx, w.ns, gone); err != nil {
		t.Fatalf("ReleaseOrphans(%s, network and app there) = %v", w.ns, err)
	}
	waitGone(t, ctx, w, Name("gone", RunKey(testKey, w.request("gone"))))
	if ok, err := e.Adoptable(ctx, w.request("network")); err != nil || !ok {
		t.Errorf("Adoptable(network) after ReleaseOrphans = %v, %v, want true: its object is there", ok, err)
	}
	if want := "Terraform/gone is gone"; !strings.Contains(w.log(), want) {
		t.Errorf("log lacks %q:\n%s", want, w.log())
	}
}

// TestEnvFromSecretMissingInCluster: with Config.EnvFromSecret naming a
// Secret the object's namespace lacks, no Job is started (its pod would
// wait in CreateContainerConfigError until the deadline) and the run
// fails at once, naming the Secret and the fix.
func TestEnvFromSecretMissingInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l := w.launcher(t, 10)
	l.cfg.EnvFromSecret = "runner-credentials"
	_, err := l.Run(ctx, Spec{Namespace: w.ns, Object: "network", Run: "r1", Request: []byte("{}")})
	want := "runner environment secret " + w.ns + "/runner-credentials: "
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--runner-env-from-secret") {
		t.Errorf("Run(EnvFromSecret missing) = %v, want an error containing %q and the fix", err, want)
	}
	list, err := w.c.Client.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 0 {
		t.Errorf("jobs in %s after a run without its environment secret = %d, want none", w.ns, len(list.Items))
	}
}
