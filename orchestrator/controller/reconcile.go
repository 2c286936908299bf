package controller

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/strata-iac/strata/internal/recovered"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// pass is what one reconcile of a namespace knows so far.
type pass struct {
	ns string
	// tfs are the namespace's Terraform objects, by name.
	tfs map[string]*v1alpha2.Terraform
	// objects are what the environment is built from; all adds the
	// objects being deleted. sources are the sources of other namespaces
	// that the objects' spec.sourceRef name, when those are allowed.
	objects, all, sources []map[string]any
	// outOfShard are the objects the Terraform objects name that another
	// shard reconciles (shardRefs).
	outOfShard map[string]string
	// deleted are the stacks of the objects deleted with
	// destroyResourcesOnDeletion, as those objects still describe them:
	// their destroy is a run of that code.
	deleted map[string]*environment.Stack
	env     *environment.Environment
	g       *graph.Graph
	report  *report.Report
	// stacks are the reports of the stacks, by name.
	stacks map[string]*report.StackReport
	// outputs are the outputs written, by stack.
	outputs map[string]outputs
	// mu guards toRelease, which the stacks' runs fill in at once, the
	// sets of stacks they note (note), and adopter.
	mu sync.Mutex
	// toRelease are the runs an Adopter reported, released once their
	// objects' status is written (written).
	toRelease []adopted
	written   map[string]bool
	// adopter is the pass's executor when it is an Adopter.
	adopter Adopter
	// keeper keeps the code each stack last ran (nil when the records
	// cannot): an object's is dropped with its finalizer.
	keeper Keeper
	// refused are the stacks whose run failed because their runner pod
	// was refused, or waits to retry such a run: their Ready reason is
	// ReasonRunnerPodRefused.
	refused map[string]bool
	// exhausted are the stacks not run because their objects'
	// spec.remediation.retries are used up (exhausted), and retryWait
	// those that wait to be retried: neither ran anything.
	exhausted, retryWait map[string]bool
}

// setKeeper notes the pass's keeper of artifacts.
func (p *pass) setKeeper(k Keeper) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keeper = k
}

// note adds a stack to one of the pass's sets of stacks (refused,
// exhausted, retryWait), which the stacks' runs fill in at once.
func (p *pass) note(set *map[string]bool, stack string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if *set == nil {
		*set = map[string]bool{}
	}
	(*set)[stack] = true
}

// noted reports whether note added the stack to the set.
func (p *pass) noted(set map[string]bool, stack string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return set[stack]
}

// refusedRun notes a stack whose run failed because its runner pod was
// refused.
func (p *pass) refusedRun(stack string) { p.note(&p.refused, stack) }

// wasRefused reports whether refusedRun noted the stack.
func (p *pass) wasRefused(stack string) bool { return p.noted(p.refused, stack) }

// exhaust notes a stack that was not run because its object's
// spec.remediation.retries are used up.
func (p *pass) exhaust(stack string) { p.note(&p.exhausted, stack) }

// wasExhausted reports whether exhaust noted the stack.
func (p *pass) wasExhausted(stack string) bool { return p.noted(p.exhausted, stack) }

// waitedToRetry notes a stack that ran nothing because its last run
// failed less than its spec.retryInterval ago.
func (p *pass) waitedToRetry(stack string) { p.note(&p.retryWait, stack) }

// didWaitToRetry reports whether waitedToRetry noted the stack.
func (p *pass) didWaitToRetry(stack string) bool { return p.noted(p.retryWait, stack) }

// setAdopter notes the pass's executor, an Adopter.
func (p *pass) setAdopter(a Adopter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.adopter = a
}

// adopted is a run an Adopter reported: it stays adoptable until released.
type adopted struct {
	adopter Adopter
	req     Request
	out     Outcome
}

// ran notes a run an Adopter reported.
func (p *pass) ran(a adopted) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.toRelease = append(p.toRelease, a)
}

// deleting reports whether the object is being deleted.
func deleting(tf *v1alpha2.Terraform) bool { return tf.DeletionTimestamp != nil }

// Reconcile reconciles one namespace: its Terraform objects as one
// environment, run as strata apply runs one. Each step is one function;
// status is written once, at the end, from the report.
//
// A panic of a step is the namespace's error (recovered.Error): Run logs
// it with its stack and goes on with the other namespaces.
func (c *Controller) Reconcile(ctx context.Context, ns string) (err error) {
	defer c.lock(ns)()
	defer recovered.Catch(&err, "reconcile namespace "+ns)
	p := &pass{ns: ns}
	for _, step := range []func(context.Context, *pass) error{
		c.list,
		c.shardRefs,
		c.addFinalizers,
		c.load,
		c.approve,
		c.run,
		c.writeOutputs,
		c.writeStatus,
		c.release,
		c.removeFinalizers,
	} {
		if err := step(ctx, p); err != nil {
			if errors.Is(err, errNothing) {
				return nil
			}
			return fmt.Errorf("reconcile namespace %s: %w", ns, err)
		}
	}
	return nil
}

// list reads the namespace's Terraform objects and what the environment
// is built from.
func (c *Controller) list(ctx context.Context, p *pass) error {
	tfs, err := c.cfg.Cluster.Terraforms(ctx, p.ns)
	if err != nil {
		return err
	}
	if len(tfs) == 0 {
		return errNothing
	}
	p.tfs = make(map[string]*v1alpha2.Terraform, len(tfs))
	for i := range tfs {
		p.tfs[tfs[i].Name] = &tfs[i]
	}
	objs, err := c.cfg.Cluster.Objects(ctx, p.ns)
	if err != nil {
		return err
	}
	// An object being deleted is no longer part of the environment: its
	// stack has left it, as a stack removed from a repository has.
	p.all = objs
	p.objects = slices.DeleteFunc(slices.Clone(objs), func(o map[string]any) bool {
		tf := p.tfs[name(o)]
		return o["kind"] == v1alpha2.Kind && tf != nil && deleting(tf)
	})
	return c.listSources(ctx, p)
}

// listSources reads the sources of other namespaces that the objects'
// spec.sourceRef name, when cross-namespace references are allowed (the
// loader refuses them otherwise). A source that is not there is left out:
// the loader says so.
func (c *Controller) listSources(ctx context.Context, p *pass) error {
	if !c.cfg.CrossNamespaceRefs {
		return nil
	}
	seen := map[string]bool{}
	for _, tf := range sortedObjects(p.tfs) {
		ref := tf.Spec.SourceRef
		key := ref.Kind + "/" + ref.Namespace + "/" + ref.Name
		if ref.Namespace == "" || ref.Namespace == p.ns || seen[key] {
			continue
		}
		seen[key] = true
		o, ok, err := c.cfg.Cluster.Source(ctx, ref.Kind, ref.Namespace, ref.Name)
		if err != nil {
			return err
		}
		if ok {
			p.sources = append(p.sources, o)
		}
	}
	return nil
}

// name is an object's metadata.name.
func name(o map[string]any) string {
	md, _ := o["metadata"].(map[string]any)
	n, _ := md["name"].(string)
	return n
}

// addFinalizers puts the finalizer on every object that lacks it, so that
// its deletion waits for the controller, as the Tofu Controller's does.
func (c *Controller) addFinalizers(ctx context.Context, p *pass) error {
	for _, tf := range sortedObjects(p.tfs) {
		if deleting(tf) || slices.Contains(tf.Finalizers, v1alpha2.Finalizer) {
			continue
		}
		if err := c.cfg.Cluster.SetFinalizers(ctx, tf, append(slices.Clone(tf.Finalizers), v1alpha2.Finalizer)); err != nil {
			return err
		}
	}
	return nil
}

// load builds the namespace's environment and its graph. A problem of
// one object holds back that object and what depends on it
// (environment.Blocked: their status says why, in writeStatus), as the
// Tofu Controller fails one object alone; the others run. A problem of
// the whole namespace (its init ConfigMap, the graph) is said in the
// Ready condition of every object it names, and nothing runs.
func (c *Controller) load(ctx context.Context, p *pass) error {
	ns := c.namespace(p, p.objects)
	ns.Isolate = true
	env, err := flux.LoadNamespace(ctx, ns)
	if err == nil {
		p.env = env
		p.g, err = validate.Graph(env)
	}
	var problems diag.Problems
	if err != nil && errors.As(err, &problems) {
		c.refuse(ctx, p, problems)
	}
	if err == nil {
		p.deleted = c.loadDeleted(ctx, p)
	}
	return err
}

// loadDeleted builds the stacks of the objects deleted with
// destroyResourcesOnDeletion, as they still describe them, with the rest
// of the namespace. An object whose source is gone (deleted, or without
// an artifact) still has its stack, with no artifact: its destroy runs
// the code its last good run ran, which strata kept in the records
// (orchestrator's remove). An object that no longer loads for another
// reason has none: its destroy plan is then made in the workspace its
// last run left, if this process has it.
func (c *Controller) loadDeleted(ctx context.Context, p *pass) map[string]*environment.Stack {
	var names []string
	for _, tf := range sortedObjects(p.tfs) {
		if deleting(tf) && tf.Spec.DestroyResourcesOnDeletion {
			names = append(names, tf.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	env, err := flux.LoadNamespace(ctx, c.namespace(p, p.all))
	if env == nil {
		c.log.Warn(fmt.Sprintf("load the deleted objects of namespace %s: %v", p.ns, err), "namespace", p.ns)
		return nil
	}
	var problems diag.Problems
	errors.As(err, &problems)
	out := map[string]*environment.Stack{}
	for _, n := range names {
		s := env.Stack(n)
		if s == nil {
			continue
		}
		if i := slices.IndexFunc(problems, func(pr diag.Problem) bool {
			return pr.File == s.File && pr.Code != diag.CodeSourceNotFound
		}); i >= 0 {
			c.log.Warn(fmt.Sprintf("deleted Terraform/%s/%s: %s", p.ns, n, problems[i]), "namespace", p.ns)
			continue
		}
		if s.Source.Artifact == nil {
			s.Source.Artifact = &environment.Artifact{}
		}
		out[n] = s
	}
	return out
}

// namespace is what the loader reads of the pass's namespace, made of
// objs.
func (c *Controller) namespace(p *pass, objs []map[string]any) flux.Namespace {
	return flux.Namespace{
		Name: p.ns, Root: c.root(), Objects: objs,
		CrossNamespaceRefs: c.cfg.CrossNamespaceRefs, Sources: p.sources,
		OutOfShard: p.outOfShard, Shard: c.cfg.Shard,
	}
}

// root stands for the repository root of a namespace's environment: the
// state directory's parent, so that the state directory is the one the
// options name.
func (c *Controller) root() string {
	if dir := c.cfg.Pipeline.StateDir(); dir != "" {
		return filepath.Dir(dir)
	}
	return "."
}

// refuse marks every object a problem names as not ready, with the
// problem, and records a Warning event.
func (c *Controller) refuse(ctx context.Context, p *pass, problems diag.Problems) {
	byObject := map[string][]string{}
	// A reference the configuration forbids is the Tofu Controller's
	// AccessDenied, not a validation failure.
	denied := map[string]bool{}
	for _, pr := range problems {
		n := filepath.Base(pr.File)
		if pr.Code == diag.CodeAccessDenied && p.tfs[n] != nil {
			denied[n] = true
			byObject[n] = append([]string{pr.Message}, byObject[n]...)
			continue
		}
		if p.tfs[n] == nil || filepath.Dir(pr.File) != filepath.Join(p.ns, v1alpha2.Kind) {
			// A problem of another object (a ConfigMap, a source) or of
			// the graph holds every stack.
			for tn := range p.tfs {
				byObject[tn] = append(byObject[tn], pr.String())
			}
			continue
		}
		byObject[n] = append(byObject[n], pr.String())
	}
	for n, msgs := range byObject {
		tf := p.tfs[n]
		msg := msgs[0]
		if len(msgs) > 1 {
			msg = fmt.Sprintf("%s (and %d more problems)", msg, len(msgs)-1)
		}
		reason := ReasonValidationFailed
		if denied[n] {
			reason = v1alpha2.ReasonAccessDenied
		}
		prev := readyOf(tf)
		setReady(tf, false, reason, msg, "")
		_ = c.writeObjectStatus(ctx, tf, prev, "Warning", reason, msg)
	}
}

// run reconciles the environment with the orchestrator, as strata apply
// does, the runs going to the executor.
func (c *Controller) run(ctx context.Context, p *pass) error {
	key, err := c.cfg.Cluster.HashKey(ctx, p.ns, hashkey.Size, hashkey.New)
	if err != nil {
		return err
	}
	rep, err := c.cfg.Pipeline.Apply(ctx, p.env, p.g, "namespace "+p.ns, runner.Hooks{
		HashKey: key,
		Runs:    c.runs(p),
		Removable: func(stack string) bool {
			tf := p.tfs[stack]
			return tf != nil && deleting(tf) && tf.Spec.DestroyResourcesOnDeletion
		},
		Deleted: func(stack string) *environment.Stack { return p.deleted[stack] },
	})
	if err != nil {
		return err
	}
	p.report = rep
	p.stacks = make(map[string]*report.StackReport, len(rep.Stacks))
	for i := range rep.Stacks {
		p.stacks[rep.Stacks[i].Stack] = &rep.Stacks[i]
	}
	return nil
}

// removeFinalizers lets the objects being deleted go: at once when they
// keep their resources (no spec.destroyResourcesOnDeletion), else once
// their destroy plan is applied (or there was nothing to destroy). A
// destroy plan that is held keeps the object until approvePlan approves
// it. Its writeOutputsToSecret Secret and its plan Secret (and ConfigMap) are deleted first, as the Tofu
// Controller deletes it when it finalizes an object: not left to its
// owner reference, which a Secret written before strata (by the Tofu
// Controller, by a person) may lack.
func (c *Controller) removeFinalizers(ctx context.Context, p *pass) error {
	for _, tf := range sortedObjects(p.tfs) {
		if !deleting(tf) || !slices.Contains(tf.Finalizers, v1alpha2.Finalizer) {
			continue
		}
		if tf.Spec.DestroyResourcesOnDeletion {
			if sr := p.stacks[tf.Name]; sr != nil && sr.Result != history.ResultApplied {
				continue
			}
		}
		if w := tf.Spec.WriteOutputsToSecret; w != nil && w.Name != "" {
			if err := c.cfg.Cluster.DeleteSecret(ctx, tf.Namespace, w.Name); err != nil {
				return fmt.Errorf("finalize Terraform/%s: outputs: %w", tf.Name, err)
			}
		}
		if err := c.deletePlans(ctx, tf); err != nil {
			return fmt.Errorf("finalize Terraform/%s: plan: %w", tf.Name, err)
		}
		if p.keeper != nil && p.env != nil {
			// The code its last run left: nothing will destroy it now.
			if err := p.keeper.DropArtifacts(ctx, p.env.Client, p.env.Name, tf.Name); err != nil {
				return fmt.Errorf("finalize Terraform/%s: %w", tf.Name, err)
			}
		}
		rest := slices.DeleteFunc(slices.Clone(tf.Finalizers), func(f string) bool { return f == v1alpha2.Finalizer })
		if err := c.cfg.Cluster.SetFinalizers(ctx, tf, rest); err != nil {
			return err
		}
	}
	return nil
}

// sortedObjects returns the objects sorted by name.
func sortedObjects(tfs map[string]*v1alpha2.Terraform) []*v1alpha2.Terraform {
	out := make([]*v1alpha2.Terraform, 0, len(tfs))
	for _, tf := range tfs {
		out = append(out, tf)
	}
	slices.SortFunc(out, func(a, b *v1alpha2.Terraform) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
}
