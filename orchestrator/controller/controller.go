package controller

import (
	"context"
	"errors"
	"fmt"
	"github.com/strata-iac/strata/orchestrator/fluxevents"
	"log/slog"
	"sync"
	"time"

	"github.com/strata-iac/strata/internal/recovered"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// Cluster is what the controller needs of the Kubernetes API; *kube.Client
// is one.
type Cluster interface {
	// Terraforms lists a namespace's Terraform objects.
	Terraforms(ctx context.Context, ns string) ([]v1alpha2.Terraform, error)
	// Objects lists what a namespace's environment is built from:
	// Terraform objects, Flux sources, ConfigMaps and Secrets.
	Objects(ctx context.Context, ns string) ([]map[string]any, error)
	// Source reads one Flux source of kind in namespace ns; false when
	// there is none.
	Source(ctx context.Context, kind, ns, name string) (map[string]any, bool, error)
	UpdateStatus(ctx context.Context, tf *v1alpha2.Terraform) error
	SetFinalizers(ctx context.Context, tf *v1alpha2.Terraform, finalizers []string) error
	// WriteSecret creates or updates a Secret owned by the object, and
	// reports whether it changed.
	WriteSecret(ctx context.Context, owner *v1alpha2.Terraform, name string, labels, annotations map[string]string, data map[string][]byte) (bool, error)
	// DeleteSecret deletes a Secret; one already gone is no error.
	DeleteSecret(ctx context.Context, ns, name string) error
	// WriteConfigMap creates or updates a ConfigMap owned by the object,
	// and DeleteConfigMap deletes one (one already gone is no error).
	WriteConfigMap(ctx context.Context, owner *v1alpha2.Terraform, name string, labels, annotations map[string]string, data map[string]string) (bool, error)
	DeleteConfigMap(ctx context.Context, ns, name string) error
	Event(ctx context.Context, tf *v1alpha2.Terraform, typ, reason, message string) error
	// Watch calls changed with the namespace of every change of a
	// Terraform object or a source, until ctx ends.
	Watch(ctx context.Context, namespaces []string, changed func(ns string)) error
	// HashKey returns the namespace's key of the input hashes, creating
	// it with newKey when there is none, so that every replica and runner
	// pod keys with one key.
	HashKey(ctx context.Context, ns string, size int, newKey func() ([]byte, error)) ([]byte, error)
	// OutOfShard reports whether a Terraform object or source of kind
	// exists but is another shard's, with the labels that put it there.
	OutOfShard(ctx context.Context, kind, ns, name string) (string, bool, error)
}

// Config configures a Controller.
type Config struct {
	Cluster Cluster
	// Namespaces are the namespaces watched; each is one environment.
	Namespaces []string
	// Pipeline runs each namespace's reconcile and approvals: package
	// reconcile's, with the options strata apply takes (tofu, state
	// directory, policy, runner limit, logger), as reconcile.Pipeline.
	Pipeline Pipeline
	// Executor makes the executor of the runs from the reconcile's runner
	// configuration; InProcess when nil.
	Executor func(runner.Config) Executor
	// Interval is how often every namespace is reconciled when nothing
	// changed (DefaultInterval when zero).
	Interval time.Duration
	// Logger receives the controller's own lines (Options.Logger the runs').
	Logger *slog.Logger
	// CrossNamespaceRefs lets a Terraform object's spec.sourceRef name a
	// source of another namespace, as the Tofu Controller's
	// --allow-cross-namespace-refs does. Without it such an object is not
	// ready (AccessDenied), with the Tofu Controller's message, and its
	// namespace does not run, as for any problem.
	CrossNamespaceRefs bool
	// Shard is the label selector Cluster reads objects with
	// (--watch-label-selector), named in the errors of references to
	// another shard's objects; "" when every object is read.
	Shard string
	// Events, when set, posts each object's events to Flux's
	// notification-controller too (--events-addr), besides the
	// Kubernetes Events.
	Events Notifier
}

// Notifier posts an object's event to Flux's notification-controller:
// package fluxevents' Poster.
type Notifier interface {
	Post(ctx context.Context, obj fluxevents.Object, eventType, reason, message string, metadata map[string]string) error
}

// DefaultInterval is how often a namespace is reconciled when nothing in
// it changed, as a Terraform object's spec.interval defaults.
const DefaultInterval = 5 * time.Minute

// Controller reconciles the Terraform objects of some namespaces.
type Controller struct {
	cfg Config
	log *slog.Logger
	// mu serialises the reconciles of one namespace.
	mu    sync.Mutex
	locks map[string]*sync.Mutex
	// posts are the events being posted to the notification-controller;
	// Run waits for them before it returns.
	posts sync.WaitGroup
}

// New returns a Controller.
func New(cfg Config) *Controller {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Controller{cfg: cfg, log: log, locks: map[string]*sync.Mutex{}}
}

// Run reconciles every namespace when it starts, whenever a Terraform
// object or a source of a namespace changes, and every Interval, until ctx
// ends. A failed reconcile is logged and tried again on the next change or
// interval.
func (c *Controller) Run(ctx context.Context) error {
	defer c.posts.Wait()
	changed := make(chan string, 64)
	watchErr := make(chan error, 1)
	go func() {
		watchErr <- c.cfg.Cluster.Watch(ctx, c.cfg.Namespaces, func(ns string) {
			select {
			case changed <- ns:
			default: // a reconcile of it is already due
			}
		})
	}()
	tick := time.NewTicker(c.cfg.Interval)
	defer tick.Stop()
	due := map[string]bool{}
	for _, ns := range c.cfg.Namespaces {
		due[ns] = true
	}
	for {
		for _, ns := range c.cfg.Namespaces {
			if !due[ns] || ctx.Err() != nil {
				continue
			}
			delete(due, ns)
			if err := c.Reconcile(ctx, ns); err != nil && ctx.Err() == nil {
				c.log.Error(err.Error(), "namespace", ns)
				recovered.Log(c.log.With("namespace", ns), err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case err := <-watchErr:
			if err != nil {
				return fmt.Errorf("watch: %w", err)
			}
			return nil
		case ns := <-changed:
			due[ns] = true
			// Changes come in bursts (an object and its status): take
			// what else arrives at once.
			drain(changed, due)
		case <-tick.C:
			for _, ns := range c.cfg.Namespaces {
				due[ns] = true
			}
		}
	}
}

// drain marks every namespace already queued as due.
func drain(changed <-chan string, due map[string]bool) {
	for {
		select {
		case ns := <-changed:
			due[ns] = true
		default:
			return
		}
	}
}

// lock serialises the reconciles of one namespace.
func (c *Controller) lock(ns string) func() {
	c.mu.Lock()
	l := c.locks[ns]
	if l == nil {
		l = &sync.Mutex{}
		c.locks[ns] = l
	}
	c.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// errNothing means a namespace has no Terraform object: nothing to do.
var errNothing = errors.New("no Terraform object")
