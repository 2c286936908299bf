//go:build k8s

package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runjob"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// world is a namespace ready for runner Jobs: strata's image, the
// tf-runner service account with what tofu's kubernetes backend needs, the
// seed's PriorityClass, and the stack's code served where the runner pods
// (on the host's network) fetch it.
type world struct {
	c      *k8stest.Cluster
	ns     string
	image  string
	source runjob.Source
	logs   testkit.Buffer
}

func newWorld(t *testing.T) *world {
	c := k8stest.Get(t)
	w := &world{c: c, ns: c.Namespace(t, "strata-jobs"), image: c.StrataImage(t)}
	ctx := context.Background()
	cs := c.Client
	if _, err := cs.CoreV1().ServiceAccounts(w.ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: DefaultServiceAccount}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	role := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "tf-runner"},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "create", "update", "patch", "delete"}},
			{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "list", "create", "update", "patch", "delete"}},
		},
	}
	if _, err := cs.RbacV1().Roles(w.ns).Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "tf-runner"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "tf-runner"},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: DefaultServiceAccount, Namespace: w.ns}},
	}
	if _, err := cs.RbacV1().RoleBindings(w.ns).Create(ctx, rb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: DefaultPriorityClass}, Value: 0,
		Description: "used to limit the number of terraform runners"}
	if _, err := cs.SchedulingV1().PriorityClasses().Create(ctx, pc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	url, digest := testkit.ServeTarball(t, "testdata/stack")
	w.source = runjob.Source{URL: url, Digest: digest, Path: "."}
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

// spec is one apply of stack as a runner Job.
func (w *world) spec(t *testing.T, stack, run string) Spec {
	req := runjob.Request{
		Run: runner.Request{
			Operation: history.OperationApply, Client: "acme", Env: "dev", Class: "non-prod",
			Stack: &environment.Stack{Name: stack, ApprovePlan: "auto", Vars: map[string]any{"name": stack}},
		},
		Source:   w.source,
		Settings: environment.Settings{Contracts: environment.ContractSettings{Store: environment.ContractsLocal, Prefix: "/configuration"}},
		Backend:  runner.StateBackend{Kind: runner.BackendKubernetes, Namespace: w.ns},
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Namespace: w.ns, Object: stack, Run: run, Request: b, Timeout: 3 * time.Minute}
}

func outcome(t *testing.T, out Outcome) runjob.Outcome {
	t.Helper()
	var o runjob.Outcome
	if err := json.Unmarshal(out.Message, &o); err != nil {
		t.Fatalf("termination message %q: %v", out.Message, err)
	}
	return o
}

// TestRunnerJobInCluster runs one stack as a runner Job: tofu applies it in
// the pod, its state is the Tofu Controller's Secret, the run's lines
// reach the launcher's log in the seed's format, the outcome comes back,
// and no Job, pod or request Secret is left.
func TestRunnerJobInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	l := w.launcher(t, 10)
	spec := w.spec(t, "network", "apply-1")
	out, err := l.Run(ctx, spec)
	if err != nil {
		t.Fatalf("Run(network) = %v\nlog:\n%s", err, w.log())
	}
	if !out.Succeeded || out.Adopted || out.Job != Name("network", "apply-1") {
		t.Errorf("Run(network) = %+v, want succeeded, not adopted, job %s", out, Name("network", "apply-1"))
	}
	if o := outcome(t, out); o.Result != string(history.ResultApplied) || o.Run != 1 {
		t.Errorf("outcome = %+v, want applied, run 1", o)
	}
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
	waitGone(t, ctx, w, out.Job)
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

// TestAdoptInFlightJobInCluster is the launcher's part of a leader's
// failover: a leader starts a run's Job and dies; the next leader asks for
// the same run and adopts the Job in flight: one Job, one pod, one apply.
func TestAdoptInFlightJobInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	jobsSeen := watchJobs(t, ctx, w)

	spec := w.spec(t, "network", "apply-1")
	first, firstCtx := w.launcher(t, 10), context.Background()
	firstCtx, kill := context.WithCancel(firstCtx)
	done := make(chan error, 1)
	go func() { _, err := first.Run(firstCtx, spec); done <- err }()
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
		t.Fatal("Run() of the killed leader = nil, want the cancellation")
	}

	second := w.launcher(t, 10)
	out, err := second.Run(ctx, spec)
	if err != nil {
		t.Fatalf("Run(network) after failover = %v\nlog:\n%s", err, w.log())
	}
	if !out.Adopted || !out.Succeeded {
		t.Errorf("Run(network) after failover = %+v, want adopted and succeeded", out)
	}
	if o := outcome(t, out); o.Result != string(history.ResultApplied) {
		t.Errorf("outcome = %+v, want applied", o)
	}
	if !strings.Contains(w.log(), "adopting this run's runner job "+out.Job) {
		t.Errorf("log lacks the adoption of %s:\n%s", out.Job, w.log())
	}
	if got := jobsSeen(); len(got) != 1 {
		t.Errorf("jobs created = %v, want one", got)
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

// TestMaxRunnersInCluster is the test 5: with --max-runners 2 and
// ten stacks ready at once, never more than two runner Jobs are in flight,
// and all ten apply.
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

	l := w.launcher(t, maxRunners)
	var wg sync.WaitGroup
	errs := make([]error, 10)
	outs := make([]Outcome, 10)
	for i := range 10 {
		wg.Go(func() {
			outs[i], errs[i] = l.Run(ctx, w.spec(t, fmt.Sprintf("stack-%02d", i), "apply-1"))
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil || !outs[i].Succeeded {
			t.Errorf("Run(stack-%02d) = %+v, %v, want succeeded", i, outs[i], err)
		}
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
