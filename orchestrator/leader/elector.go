package leader

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"

	"github.com/strata-iac/strata/internal/deadline"
)

// JitterFactor is client-go's: RenewDeadline must be longer than
// RetryPeriod times JitterFactor.
const JitterFactor = leaderelection.JitterFactor

// ErrLost is returned by Lead when this process stopped leading while its
// context had not ended: the Lease could not be renewed in time.
var ErrLost = errors.New("lost the lease")

// Elector takes part in the election of one Lease.
type Elector struct {
	cfg Config
	le  *leaderelection.LeaderElector
	// started receives the election's context once this process took the
	// Lease.
	started chan context.Context
	// leading is true while Lead's function runs.
	leading atomic.Bool
}

// New returns an Elector for the Lease cfg names. It reads the kubeconfig
// (or the in-cluster configuration) but does not contact the API server.
func New(cfg Config) (*Elector, error) {
	cfg = cfg.withDefaults()
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: cfg.Kubeconfig}
	kc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{})
	rest, err := kc.ClientConfig()
	if err != nil {
		if cfg.Kubeconfig == "" {
			return nil, fmt.Errorf("leader election: no kubeconfig given and not running in a cluster: %w", err)
		}
		return nil, fmt.Errorf("leader election: read kubeconfig %s: %w", cfg.Kubeconfig, err)
	}
	if cfg.Namespace == "" {
		if cfg.Namespace, _, err = kc.Namespace(); err != nil || cfg.Namespace == "" {
			cfg.Namespace = "default"
		}
	}
	rest.UserAgent = "strata"
	rest.WrapTransport = deadline.WrapKube(rest.WrapTransport)
	client, err := kubernetes.NewForConfig(rest)
	if err != nil {
		return nil, fmt.Errorf("leader election: client for %s: %w", rest.Host, err)
	}
	e := &Elector{cfg: cfg, started: make(chan context.Context, 1)}
	e.le, err = leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock: &resourcelock.LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Namespace: cfg.Namespace, Name: cfg.Name},
			Client:     client.CoordinationV1(),
			LockConfig: resourcelock.ResourceLockConfig{Identity: cfg.Identity},
		},
		Name:          cfg.Namespace + "/" + cfg.Name,
		LeaseDuration: cfg.LeaseDuration,
		RenewDeadline: cfg.RenewDeadline,
		RetryPeriod:   cfg.RetryPeriod,
		// The Lease is released once the election's context ends, which
		// Lead ends only after its function returned.
		ReleaseOnCancel: true,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { e.started <- ctx },
			OnStoppedLeading: func() {},
			OnNewLeader:      e.newLeader,
		},
	})
	if err != nil {
		return nil, fmt.Errorf("leader election: lease %s/%s: %w", cfg.Namespace, cfg.Name, err)
	}
	return e, nil
}

// Lease names the Lease as namespace/name.
func (e *Elector) Lease() string { return e.cfg.Namespace + "/" + e.cfg.Name }

// Identity is this process's identity in the Lease.
func (e *Elector) Identity() string { return e.cfg.Identity }

// Lead takes part in the election until ctx ends or this process stops
// leading, and runs lead while it leads, with a context that ends when this
// process stops leading (its cause then wraps ErrLost) or ctx ends. The
// Lease is renewed until lead returned, even after ctx ended, and then
// released. Lead returns nil when
// ctx ended, and an error wrapping ErrLost when the Lease could not be
// renewed. Lead is called once per Elector.
func (e *Elector) Lead(ctx context.Context, lead func(context.Context)) error {
	electCtx, stopElection := context.WithCancel(context.WithoutCancel(ctx))
	defer stopElection()
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		e.le.Run(klog.NewContext(electCtx, logr.FromSlogHandler(quieter{e.cfg.Logger.Handler()})))
	}()
	e.cfg.Logger.Info(fmt.Sprintf("leader election: %s waits for the lease %s", e.cfg.Identity, e.Lease()))

	select {
	case <-ctx.Done():
		// Not leading: stop trying to. A Lease taken meanwhile is
		// released.
		stopElection()
		<-ran
		return nil
	case <-ran:
		// The Lease was taken and lost before lead could start.
		return e.lost()
	case leadCtx := <-e.started:
		e.cfg.Logger.Info(fmt.Sprintf("leader election: %s leads, holding the lease %s", e.cfg.Identity, e.Lease()))
		// lead's context ends with a cause: the Lease lost, or ctx's.
		runCtx, cancel := context.WithCancelCause(context.WithoutCancel(leadCtx))
		stopOnLost := context.AfterFunc(leadCtx, func() { cancel(e.lost()) })
		stopOnDone := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
		e.leading.Store(true)
		lead(runCtx)
		e.leading.Store(false)
		stopOnLost()
		stopOnDone()
		cancel(nil)
		// The election's context ends only when renewing failed.
		lost := leadCtx.Err() != nil
		stopElection()
		<-ran
		if lost {
			return e.lost()
		}
		e.cfg.Logger.Info(fmt.Sprintf("leader election: %s released the lease %s", e.cfg.Identity, e.Lease()))
		return nil
	}
}

func (e *Elector) lost() error {
	return fmt.Errorf("leader election: %s %w %s: it was not renewed within %s", e.cfg.Identity, ErrLost, e.Lease(), e.cfg.RenewDeadline)
}

// newLeader logs a leader other than this process.
func (e *Elector) newLeader(identity string) {
	if identity != e.cfg.Identity {
		e.cfg.Logger.Info(fmt.Sprintf("leader election: %s leads; %s follows", identity, e.cfg.Identity))
	}
}

// Leader reports whether this process leads (its function runs), and the
// identity of the leader it last saw ("" when it saw none yet).
func (e *Elector) Leader() (leading bool, identity string) {
	return e.leading.Load(), e.le.GetLeader()
}
