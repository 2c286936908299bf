package jobs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/runjob"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// Executor is the controller.Executor that runs each request as a runner
// Job and reports the outcome `strata runner` gave.
type Executor struct {
	Launcher *Launcher
	// Settings are the environment's, for the runner pod's run (its
	// state directory is the pod's own).
	Settings environment.Settings
	// StackIntervals is the controller's runner.Config.StackIntervals:
	// the pod's run takes each stack's spec.interval as its drift
	// interval, as the controller does.
	StackIntervals bool
	// Backend is where a stack without customConfiguration keeps its
	// state; when its Kind is empty, the Tofu Controller's default: the
	// kubernetes backend in the object's namespace, the Secret named by
	// backendConfig.secretSuffix, else the object's name.
	Backend runner.StateBackend
	// Timeout bounds one run (runner.DefaultTimeout when zero).
	Timeout time.Duration
	// Contracts and ContractPrefix are the controller's contract store.
	// When the runner's is local (Settings), a pod does not share it: the
	// request carries the documents the stack reads, and the contract the
	// run published comes back with the outcome and is put here.
	Contracts      contracts.Store
	ContractPrefix string
	// History, when set, records each Job's run as the controller's own:
	// the runner pod's history goes with the pod, and the controller's
	// skip-unchanged reads this one.
	History Recorder
	// Refusals, when set, records as failed a run given up because its
	// runner pod was refused (a *RefusedError): no pod ran it to record
	// it, and the retry interval counts from that failure. The
	// controller's history (runner.Config.History).
	Refusals Recorder
	// HashKey keys the hashes of the pod's run, as the controller's
	// (runner.Config.HashKey): its run is recorded, and compared, in the
	// controller's history. It travels in the request Secret.
	HashKey []byte
	// NoDefaultPolicy is the controller's --no-default-policy
	// (Config.NoDefaultPolicy): the pod judges its plan without the
	// default bundle.
	NoDefaultPolicy bool
}

// Recorder numbers and records runs (*history.Store).
type Recorder interface {
	Begin(ctx context.Context, r history.Run) (history.Run, error)
	Record(ctx context.Context, r history.Run) error
}

// Execute runs req as a runner Job, or adopts the Job already running it.
func (e *Executor) Execute(ctx context.Context, req controller.Request) (controller.Outcome, error) {
	if len(e.HashKey) == 0 {
		return controller.Outcome{}, fmt.Errorf("run %s/%s as a job: the executor has no hash key (Executor.HashKey)", req.Namespace, req.Name)
	}
	docs, err := e.upstreams(ctx, req)
	if err != nil {
		return controller.Outcome{}, err
	}
	body, err := e.request(req, docs)
	if err != nil {
		return controller.Outcome{}, err
	}
	spec := Spec{
		Namespace: req.Namespace,
		Object:    req.Name,
		Owner:     metav1.OwnerReference{APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind, Name: req.Name, UID: req.UID},
		Run:       RunKey(e.HashKey, req),
		Request:   body,
		Timeout:   e.Timeout,
		Pod:       PodOf(req.Spec),
	}
	if req.Progress != nil {
		spec.Progress = func(job, reason, message string) {
			req.Progress(controller.Progress{Runner: job, Reason: reason, Message: message})
		}
	}
	out, err := e.Launcher.Run(ctx, spec)
	var refused *RefusedError
	if errors.As(err, &refused) {
		return e.refusedOutcome(ctx, req, refused, err)
	}
	if err != nil {
		return controller.Outcome{}, err
	}
	o, err := e.outcome(ctx, req, out)
	o.Runner = out.Job
	return o, err
}

// outcome is the controller's outcome of a finished Job: the one its
// runner wrote, else a failure that says how the runner ended.
func (e *Executor) outcome(ctx context.Context, req controller.Request, out Outcome) (controller.Outcome, error) {
	if len(out.Result) > 0 {
		var res runjob.Result
		if err := json.Unmarshal(out.Result, &res); err != nil {
			return controller.Outcome{}, fmt.Errorf("runner job %s/%s: read outcome: %w", req.Namespace, out.Job, err)
		}
		if err := e.publish(ctx, req, res.Contract); err != nil {
			return controller.Outcome{}, err
		}
		return e.record(ctx, res.Outcome)
	}
	// No outcome line: the runner died before its end (killed, out of
	// memory, past its deadline). The run failed; the state may be
	// locked, as tofu leaves it when killed.
	cause := fmt.Errorf("runner job %s/%s ended without an outcome: exit code %d (%s); its state may be left locked, as tofu leaves it when killed; the next run reports it",
		req.Namespace, out.Job, out.ExitCode, orUnknown(out.Reason))
	name := req.Name
	if req.Stack != nil {
		name = req.Stack.Name
	}
	return controller.NewOutcome(runner.Result{
		Stack:   name,
		Run:     history.Run{Client: req.Client, Env: req.Env, Stack: name, Operation: req.Operation, Result: history.ResultFailed},
		Message: cause.Error(),
	}, cause), nil
}

// refusedOutcome is the failed outcome of a run given up because its
// runner pod was refused: recorded in the controller's history, since no
// pod recorded it, with the refusal as its error, and marked
// RunnerPodRefused for the object's status.
func (e *Executor) refusedOutcome(ctx context.Context, req controller.Request, refused *RefusedError, cause error) (controller.Outcome, error) {
	name := req.Name
	if req.Stack != nil {
		name = req.Stack.Name
	}
	run := history.Run{
		Client: req.Client, Env: req.Env, Stack: name, Operation: req.Operation,
		Result: history.ResultFailed, Error: cause.Error(), Note: controller.NoteRunnerPodRefused,
		ToVersion: req.Artifact.Version, Digest: req.Artifact.Digest,
		StartedAt: refused.Since.UTC(), Duration: refused.For,
	}
	if e.Refusals != nil {
		begun, err := e.Refusals.Begin(ctx, run)
		if err != nil {
			return controller.Outcome{}, fmt.Errorf("run %s/%s as a job: record the refused run: %w", req.Namespace, req.Name, err)
		}
		run.Number = begun.Number
		if err := e.Refusals.Record(ctx, run); err != nil {
			return controller.Outcome{}, fmt.Errorf("run %s/%s as a job: record the refused run: %w", req.Namespace, req.Name, err)
		}
	}
	o := controller.NewOutcome(runner.Result{Stack: name, Run: run, Message: cause.Error()}, cause)
	o.RunnerPodRefused = true
	return o, nil
}

// Adoptable reports whether a runner Job of the request's object is in
// flight, or finished with an outcome no leader read (the leader that
// started it stopped first): Execute adopts it and reports its outcome,
// so the controller hands it the request even when skip-unchanged would
// answer from the history that Job's run wrote.
func (e *Executor) Adoptable(ctx context.Context, req controller.Request) (bool, error) {
	return e.Launcher.Unread(ctx, req.Namespace, req.Name)
}

// Release lets the Job of an outcome Execute reported go, once the
// controller recorded it: deleted, or marked read and kept for the
// launcher's TTL when the object keeps its runner pod.
func (e *Executor) Release(ctx context.Context, req controller.Request, o controller.Outcome) error {
	if o.Runner == "" {
		return nil
	}
	return e.Launcher.Release(ctx, req.Namespace, o.Runner, PodOf(req.Spec).KeepAfterRun)
}

// ReleaseOrphans deletes the finished runner Jobs of the launcher's shard
// in the namespace whose object gone reports gone, so that no leader
// records them.
func (e *Executor) ReleaseOrphans(ctx context.Context, namespace string, gone func(ctx context.Context, object string) (bool, error)) error {
	return e.Launcher.ReleaseOrphans(ctx, namespace, gone)
}

// local reports whether the runner's contract store is local: the pod's
// own, which the controller's stands in for.
func (e *Executor) local() bool {
	k := e.Settings.Contracts.Store
	return e.Contracts != nil && (k == "" || k == environment.ContractsLocal)
}

// upstreams are the documents of the controller's contract store that the
// stack reads, by contract name, when the runner's store is local: every
// contract it reads by any field (readInputsFromSecrets, and the varsFrom
// and valueFrom entries naming another stack's output Secret), and those
// its regular expressions select.
func (e *Executor) upstreams(ctx context.Context, req controller.Request) (map[string]contracts.Document, error) {
	s := req.Stack
	if !e.local() || s == nil {
		return nil, nil
	}
	read := s.ContractsRead()
	if len(read) == 0 && len(s.ConsumesMatching) == 0 {
		return nil, nil
	}
	docs := map[string]contracts.Document{}
	for _, name := range read {
		doc, err := e.Contracts.Get(ctx, contracts.Key(e.ContractPrefix, name))
		switch {
		case errors.Is(err, contracts.ErrNotFound):
			continue // the stack waits for it, in the pod as here
		case err != nil:
			return nil, fmt.Errorf("run %s/%s as a job: read contract %s: %w", req.Namespace, req.Name, name, err)
		}
		docs[name] = doc
	}
	if len(s.ConsumesMatching) > 0 {
		all, err := contracts.ReadPath(ctx, e.Contracts, e.ContractPrefix)
		if err != nil {
			return nil, fmt.Errorf("run %s/%s as a job: read contracts: %w", req.Namespace, req.Name, err)
		}
		for _, m := range s.ConsumesMatching {
			selected, err := contracts.Select(all, e.ContractPrefix, m.Regex)
			if err != nil {
				return nil, fmt.Errorf("run %s/%s as a job: %w", req.Namespace, req.Name, err)
			}
			maps.Copy(docs, selected)
		}
	}
	return docs, nil
}

// publish puts the contract a Job's run published in the controller's
// store.
func (e *Executor) publish(ctx context.Context, req controller.Request, doc *contracts.Document) error {
	if doc == nil || !e.local() || req.Stack == nil || req.Stack.Produces == "" {
		return nil
	}
	key := contracts.Key(e.ContractPrefix, req.Stack.Produces)
	if err := e.Contracts.Put(ctx, key, *doc); err != nil {
		return fmt.Errorf("run %s/%s as a job: publish contract %s: %w", req.Namespace, req.Name, key, err)
	}
	return nil
}

// record records the Job's run in the controller's history, numbered
// there; a run the pod did not record (an up-to-date stack) is not.
func (e *Executor) record(ctx context.Context, o controller.Outcome) (controller.Outcome, error) {
	run := o.Result.Run
	if e.History == nil || run.Number == 0 {
		return o, nil
	}
	begun, err := e.History.Begin(ctx, run)
	if err != nil {
		return o, err
	}
	run.Number = begun.Number
	if err := e.History.Record(ctx, run); err != nil {
		return o, err
	}
	o.Result.Run = run
	return o, nil
}

// request is the runner Job's request: the controller's, with the stack's
// place in its artifact, the settings and the state backend.
func (e *Executor) request(req controller.Request, docs map[string]contracts.Document) ([]byte, error) {
	if req.Artifact.URL == "" {
		return nil, fmt.Errorf("run %s/%s as a job: its code has no URL a runner pod can fetch it from (only a source-controller artifact has one)", req.Namespace, req.Name)
	}
	path := "."
	if req.Artifact.Root != "" && req.Artifact.Dir != "" {
		rel, err := filepath.Rel(req.Artifact.Root, req.Artifact.Dir)
		if err != nil {
			return nil, fmt.Errorf("run %s/%s as a job: %w", req.Namespace, req.Name, err)
		}
		path = filepath.ToSlash(rel)
	} else if req.Stack != nil && req.Stack.Path != "" {
		path = req.Stack.Path
	}
	backend := e.Backend
	if backend.Kind == "" {
		backend = runner.StateBackend{Kind: runner.BackendKubernetes, Namespace: req.Namespace}
		if bc := req.Spec.BackendConfig; bc != nil {
			backend.SecretSuffix = bc.SecretSuffix
		}
		if backend.SecretSuffix == "" {
			backend.SecretSuffix = req.Name
		}
	}
	if req.Stack != nil && len(req.Stack.Run.Env) > 0 {
		// The pod has spec.runnerPodTemplate.spec.env and envFrom
		// itself (PodOf): their values, Secrets' among them, stay out of
		// the request.
		s := *req.Stack
		s.Run.Env = nil
		req.Stack = &s
	}
	b, err := json.Marshal(runjob.Request{
		Run: req, Path: path, Settings: e.Settings, StackIntervals: e.StackIntervals, Backend: backend, Contracts: docs, HashKey: e.HashKey,
		NoDefaultPolicy: e.NoDefaultPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("run %s/%s as a job: %w", req.Namespace, req.Name, err)
	}
	return b, nil
}

// RunKey tells one run of an object from its others: the operation (a
// destroy of a deleted object its own), the code's digest, and the stack
// and the object's spec as asked, under an HMAC-SHA256 with the
// environment's hash key, since the spec can hold private values and a
// Job's name is public to anyone who lists Jobs. A leader that takes over
// reads the same key from the cluster, asks for the same run with the same
// key, and so finds the Job its predecessor started.
func RunKey(key []byte, req controller.Request) string {
	h := hmac.New(sha256.New, key)
	stack, _ := json.Marshal(req.Stack)
	spec, _ := json.Marshal(req.Spec)
	op := string(req.Operation)
	if req.Removal != nil {
		// The destroy of a deleted object is another run than its
		// applies, of the same code and spec.
		op = "destroy"
		fmt.Fprintf(h, "removal #%d\x00", req.Removal.Number)
	}
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", req.Operation, req.Artifact.Digest, stack, spec)
	return op + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}

// PodOf is what a Terraform object's spec says of its runner pod.
func PodOf(spec v1alpha2.TerraformSpec) Pod {
	t := spec.RunnerPodTemplate
	p := Pod{
		ServiceAccountName: spec.ServiceAccountName,
		KeepAfterRun:       spec.AlwaysCleanupRunnerPod != nil && !*spec.AlwaysCleanupRunnerPod,
		Labels:             t.Metadata.Labels,
		Annotations:        t.Metadata.Annotations,
		Image:              t.Spec.Image,
		ImagePullPolicy:    corev1.PullPolicy(t.Spec.ImagePullPolicy),
		NodeSelector:       t.Spec.NodeSelector,
		Affinity:           t.Spec.Affinity,
		Tolerations:        t.Spec.Tolerations,
		PriorityClassName:  t.Spec.PriorityClassName,
		SecurityContext:    t.Spec.SecurityContext,
		Env:                t.Spec.Env,
		EnvFrom:            t.Spec.EnvFrom,
		Volumes:            t.Spec.Volumes,
		VolumeMounts:       t.Spec.VolumeMounts,
		InitContainers:     t.Spec.InitContainers,
		HostAliases:        t.Spec.HostAliases,
	}
	if spec.RunnerTerminationGracePeriodSeconds != nil {
		g := time.Duration(*spec.RunnerTerminationGracePeriodSeconds) * time.Second
		p.GracePeriod = &g
	}
	if t.Spec.Resources != nil {
		p.Resources = *t.Spec.Resources
	}
	return p
}

// The Executor adopts the runs a leader before this one left.
var _ controller.Adopter = (*Executor)(nil)

// ExecutorFor is the Executor that runs the controller's runs of cfg in
// l's runner Jobs. The runner pod records its run in the records the
// controller reads too: nothing to record again, except a run whose pod
// was refused until it was given up, which no pod recorded. The pod's contract store
// is local, its own: the executor carries the documents a stack reads
// from the controller's store (whatever its kind) and puts back the one
// its run published.
func ExecutorFor(l *Launcher, cfg runner.Config) *Executor {
	return &Executor{
		Launcher: l,
		Settings: environment.Settings{
			Contracts:      environment.ContractSettings{Store: environment.ContractsLocal, Prefix: cfg.ContractPrefix},
			DriftInterval:  cfg.DriftInterval,
			ProviderMirror: cfg.ProviderMirror,
		},
		StackIntervals: cfg.StackIntervals,
		Contracts:      cfg.Contracts,
		ContractPrefix: cfg.ContractPrefix,
		Timeout:        cfg.Timeout,
		HashKey:        cfg.HashKey,
		Refusals:       cfg.History,

		NoDefaultPolicy: l.cfg.NoDefaultPolicy,
	}
}
