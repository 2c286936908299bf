package controller

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/statefile"
)

// Finding is one thing that strata controller would do with an object
// otherwise than the Tofu Controller did, as Check finds it.
type Finding struct {
	// Object is the Terraform object's name.
	Object string `json:"object"`
	// Attention is set when the swap changes what happens to the object:
	// it would not run, would plan from an empty state, would fail on a
	// held lock, or has a plan that cannot carry over. A note otherwise.
	Attention bool   `json:"attention"`
	Message   string `json:"message"`
}

// StateLockReader reads the lock a kubernetes backend's Lease of a
// namespace records; false when it holds none. Check reads the state locks
// with it, when the Cluster has it.
type StateLockReader interface {
	StateLock(ctx context.Context, ns, lease string) (statefile.Lock, bool, error)
}

// CheckOptions are what Check assumes of the controller that would take
// the namespace over.
type CheckOptions struct {
	// Jobs: its runs are runner Jobs, whose state is the kubernetes
	// backend's, as the Tofu Controller's runner keeps it.
	Jobs bool
	// NoDefaultPolicy: it runs with --no-default-policy.
	NoDefaultPolicy bool
}

// CheckNamespace reads a namespace as Reconcile would and changes
// nothing: it loads the namespace's Terraform objects as one environment,
// reads their state Secrets and lock Leases, and says, per object, what
// strata would do otherwise than the Tofu Controller did before the swap
// (Finding), sorted by object. A problem of the whole namespace is each
// object's. It returns the objects' names too, sorted.
func (c *Controller) CheckNamespace(ctx context.Context, ns string, opts CheckOptions) ([]Finding, []string, error) {
	p := &pass{ns: ns}
	for _, step := range []func(context.Context, *pass) error{c.list, c.shardRefs} {
		if err := step(ctx, p); err != nil {
			if errors.Is(err, errNothing) {
				return nil, nil, nil
			}
			return nil, nil, fmt.Errorf("check namespace %s: %w", ns, err)
		}
	}
	load := c.namespace(p, p.objects)
	load.Isolate = true
	env, err := flux.LoadNamespace(ctx, load)
	var problems diag.Problems
	if err != nil && !errors.As(err, &problems) {
		return nil, nil, fmt.Errorf("check namespace %s: %w", ns, err)
	}
	secrets := map[string]bool{}
	for _, o := range p.all {
		if o["kind"] == "Secret" {
			secrets[name(o)] = true
		}
	}
	var out []Finding
	var names []string
	for _, tf := range sortedObjects(p.tfs) {
		names = append(names, tf.Name)
		in := checked{tf: tf, problems: objectProblems(p, problems, tf.Name), opts: opts, secrets: secrets}
		if env != nil {
			for i, b := range env.Blocked {
				if b.Stack == tf.Name {
					in.blocked = &env.Blocked[i]
				}
			}
		}
		var lease string
		if in.state, lease = stateSecret(tf, opts); in.state != "" {
			lock, err := c.stateLock(ctx, ns, lease)
			if err != nil {
				return nil, nil, fmt.Errorf("check namespace %s: %w", ns, err)
			}
			in.lock = lock
		}
		out = append(out, findings(in)...)
	}
	return out, names, nil
}

// objectProblems are the load problems of one object: its own, and those
// of the whole namespace (another object's, the graph's).
func objectProblems(p *pass, problems diag.Problems, obj string) []string {
	var out []string
	for _, pr := range problems {
		n := filepath.Base(pr.File)
		if n == obj || p.tfs[n] == nil || filepath.Dir(pr.File) != filepath.Join(p.ns, v1alpha2.Kind) {
			out = append(out, pr.String())
		}
	}
	return out
}

// stateLock reads the lock Lease of a kubernetes backend state; nil when
// it holds none, or the Cluster cannot read Leases.
func (c *Controller) stateLock(ctx context.Context, ns, lease string) (*statefile.Lock, error) {
	lr, ok := c.cfg.Cluster.(StateLockReader)
	if !ok {
		return nil, nil
	}
	l, held, err := lr.StateLock(ctx, ns, lease)
	if err != nil || !held {
		return nil, err
	}
	return &l, nil
}

// stateSecret is the Secret that keeps the object's state where runner
// Jobs keep it, the kubernetes backend's tfstate-<workspace>-<suffix>,
// and the Lease that locks it; "" when its state is elsewhere (a backend
// of its own, the module's, spec.cloud, or the controller's state
// directory for in-process runs).
func stateSecret(tf *v1alpha2.Terraform, opts CheckOptions) (secret, lease string) {
	bc := tf.Spec.BackendConfig
	switch {
	case tf.Spec.Cloud != nil, bc != nil && (bc.Disable || bc.CustomConfiguration != ""):
		return "", ""
	case !opts.Jobs && (bc == nil || bc.SecretSuffix == "" && !bc.InClusterConfig && bc.ConfigPath == "" && len(bc.Labels) == 0):
		return "", ""
	}
	suffix := tf.Name
	if bc != nil && bc.SecretSuffix != "" {
		suffix = bc.SecretSuffix
	}
	return statefile.KubernetesSecretName(tf.Spec.Workspace, suffix), statefile.KubernetesLeaseName(tf.Spec.Workspace, suffix)
}

// checked is what Check knows of one object.
type checked struct {
	tf       *v1alpha2.Terraform
	opts     CheckOptions
	problems []string
	blocked  *environment.Blocked
	// state is its state Secret's name ("" when elsewhere), secrets the
	// namespace's Secrets, lock the state's lock when one is held.
	state   string
	secrets map[string]bool
	lock    *statefile.Lock
}

// findings are what strata would do otherwise with one object.
func findings(in checked) []Finding {
	tf := in.tf
	var out []Finding
	add := func(attention bool, format string, args ...any) {
		out = append(out, Finding{Object: tf.Name, Attention: attention, Message: fmt.Sprintf(format, args...)})
	}
	switch {
	case in.blocked != nil && in.blocked.Waiting:
		add(true, "waits and does not run until what it reads is there: %s", in.blocked.Reason)
	case in.blocked != nil || len(in.problems) > 0:
		why := strings.Join(in.problems, "; ")
		if in.blocked != nil {
			why = in.blocked.Reason
		}
		add(true, "does not run (Ready False): %s", why)
	}
	applied := tf.Status.LastAppliedRevision != "" || tf.Status.Plan.LastApplied != ""
	if tc, _ := stateSecret(tf, CheckOptions{Jobs: true}); in.state == "" && tc != "" && in.secrets[tc] {
		add(true, "its state is in the Secret %s, where the Tofu Controller keeps it, but with --runners in-process strata keeps it in its state directory: it would plan every resource as new; take over with --runners jobs (the default inside a cluster)", tc)
	}
	switch {
	case in.state != "" && !in.secrets[in.state] && applied:
		add(true, "its state Secret %s is not in the namespace, though it was applied (%s): strata would plan every resource as new; check spec.backendConfig.secretSuffix and spec.workspace before the swap",
			in.state, firstOf(tf.Status.LastAppliedRevision, tf.Status.Plan.LastApplied))
	case in.state != "" && !in.secrets[in.state]:
		add(false, "has no state yet (no Secret %s): its first plan creates everything, as the Tofu Controller's would", in.state)
	}
	if l := in.lock; l != nil {
		add(true, "its state is locked (%s): its first plan fails with StateLocked LockHeld until the holder releases it, or spec.tfstate.forceUnlock (yes with lockIdentifier: %s, or auto) does",
			l.Describe(time.Now()), l.ID)
	}
	if id := tf.Status.Plan.Pending; id != "" && approval.ValidID(id) != nil {
		add(true, "its pending plan %s is the Tofu Controller's and cannot carry over: strata plans again and holds that plan under its own id, which status.plan.pending and Ready then name; approve that id", id)
	}
	if a := tf.Spec.ApprovePlan; a != "" && a != v1alpha2.ApprovePlanAuto && a != v1alpha2.ApprovePlanDisable && approval.ValidID(a) != nil && a != tf.Status.Plan.LastApplied {
		add(false, "spec.approvePlan %q is not a strata plan id: it approves no plan of strata's (strata's plan ids are plan-<hex>)", a)
	}
	if tf.Spec.ApprovePlan == v1alpha2.ApprovePlanAuto && !in.opts.NoDefaultPolicy && !tf.Spec.PlanOnly {
		add(false, "approvePlan is auto: a plan that destroys or changes IAM is held for a person by strata's default policy, where the Tofu Controller applies it (--no-default-policy applies it)")
	}
	return out
}
