package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/readers"
	"github.com/strata-iac/strata/orchestrator/consumers"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/lineage"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/orchestrator/statedir"
	"github.com/strata-iac/strata/orchestrator/statefile"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// Defaults.
const (
	DefaultTimeout       = 10 * time.Minute
	DefaultDriftInterval = environment.DefaultDriftInterval
	DefaultShutdownGrace = 5 * time.Minute
)

// Config is what every run shares.
type Config struct {
	// Tofu is the tofu binary.
	Tofu string
	// StateDir holds workspaces, default local state, the plugin cache and
	// the tofu CLI configuration.
	StateDir string
	// Contracts is the store contracts are published to and read from, and
	// ContractPrefix the key prefix (contracts.DefaultPrefix when empty).
	Contracts      contracts.Store
	ContractPrefix string
	// Schemas keeps the schema history of published contracts; none is
	// kept when nil.
	Schemas *lineage.Store
	// History records every run.
	History History
	// Policy judges every plan with changes. A policy that could not be
	// loaded is a FailingPolicy, and none at all is one too: every plan
	// with changes is then held (policies fail closed).
	Policy Policy
	// Approvals keeps held plans and their approvals.
	Approvals Approvals
	// Backend is where state goes for stacks without a
	// backendConfig.customConfiguration.
	Backend StateBackend
	// StateReader reads state objects of an S3 Backend, to tell when a
	// state changed outside strata or is locked; nil reads only local
	// state.
	StateReader StateReader
	// KubernetesLocks reads the lock of a state the kubernetes backend
	// keeps (its Lease); nil reads none. strata-kube gives
	// kube.ReadStateLock: the Kubernetes client is in strata-kube alone.
	KubernetesLocks KubernetesLockReader
	// OpenState opens a reader of the S3 bucket a stack's own s3 backend
	// block names; nil reads no such state.
	OpenState StateOpener
	// ProviderMirror, when set, is the https URL of a provider network
	// mirror every init installs providers from; ProviderMirrorCA is a
	// PEM file of the certificate authorities tofu trusts for it (for a
	// mirror with its own CA).
	ProviderMirror   string
	ProviderMirrorCA string
	// Logger receives the run log lines.
	Logger *slog.Logger
	// Timeout bounds one run (DefaultTimeout when zero).
	Timeout time.Duration
	// ShutdownGrace is how long an apply in flight may go on once strata
	// is asked to stop (the context is cancelled) before tofu is
	// interrupted (DefaultShutdownGrace when zero).
	ShutdownGrace time.Duration
	// DriftInterval is how long a stack whose inputs have not changed goes
	// without a plan. Zero plans every time. With StackIntervals it is
	// only the default: a stack's own spec.interval wins.
	DriftInterval  time.Duration
	StackIntervals bool
	// RetryWait is set by the reconcile loop: a stack whose last run
	// failed is run again no sooner than its spec.retryInterval after it.
	RetryWait bool
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// HashKey keys every hash of a run's inputs (HMAC-SHA256), so that
	// none of a private value can be brute-forced from the history. When
	// nil, the key kept in StateDir is used, created on first use (see
	// hashkey).
	HashKey []byte
	// PodEnv is set in a runner pod (strata runner): the pod's TF_VAR_
	// variables, which its Job took from the object's
	// spec.runnerPodTemplate.spec.env and envFrom, reach tofu as the
	// stack's own. Elsewhere strata's own TF_VAR_ variables never do.
	PodEnv bool
}

// Runner runs stacks.
type Runner struct {
	cfg Config
	// paths joins the workspaces and state files under the state
	// directory, resolving their directories once for the Runner (one
	// reconcile).
	paths statedir.Joiner
	// cliConfigMu serialises writes of the shared tofu CLI configuration.
	cliConfigMu sync.Mutex
	// states are the readers OpenState opened, by bucket, region and
	// endpoint.
	statesMu sync.Mutex
	states   map[string]StateReader
	// key is the hash key read from StateDir, when Config has none.
	keyMu sync.Mutex
	key   []byte
	// versions are the state files' versions kept with their stats, by
	// client/env (statefile.Versions), loaded once for the Runner and
	// written back by SaveVersions.
	versionsMu sync.Mutex
	versions   map[string]*statefile.Versions
}

// New returns a Runner.
func New(cfg Config) *Runner {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.ShutdownGrace <= 0 {
		cfg.ShutdownGrace = DefaultShutdownGrace
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ContractPrefix == "" {
		cfg.ContractPrefix = contracts.DefaultPrefix
	}
	if cfg.Policy == nil {
		cfg.Policy = failingPolicy{errors.New("no policy engine is configured")}
	}
	return &Runner{cfg: cfg}
}

// KubernetesLockReader reads the lock of the state a kubernetes backend
// keeps for a workspace; false when it holds none.
type KubernetesLockReader func(ctx context.Context, b statefile.KubernetesBackend, workspace string) (statefile.Lock, bool, error)

// Request is one stack to run.
type Request struct {
	Operation history.Operation
	// Client, Env and Class identify the environment.
	Client, Env, Class string
	Stack              *environment.Stack
	Artifact           source.Artifact
	// Producers maps each contract to the stack in the environment that
	// produces it, for messages.
	Producers map[string]string
	// Readers are the stacks that read the contract this stack
	// produces, and where: a plan that would break one is held.
	Readers []consumers.Reader
	// Reads are what this stack reads of each contract it consumes. A
	// change of a contract re-plans the stack only when what it reads
	// changed; a contract missing here counts as read whole.
	Reads map[string][]readers.Read
	// Preview holds, for a plan operation, the contracts upstream plans
	// would publish, by contract: the stack is planned against them
	// instead of the published ones, to preview its changes.
	Preview map[string]contracts.Document
	// EnvDir is the environment directory as the user named it, for the
	// commands messages suggest.
	EnvDir string
	// Removal, when set, is the stack's last successful apply, and the
	// run destroys what it applied: the stack's Terraform object was
	// deleted with spec.destroyResourcesOnDeletion, and still says what
	// its code and variables are (Stack, Artifact). The destroy is planned
	// from that code, as the Tofu Controller plans it, and goes through
	// policy like any plan (see RemoveDeleted).
	Removal *history.Run
	// SavePlan, when set, is given each plan that the run makes: one
	// with changes before it is applied or held, one without under
	// policy.NoChangesPlanID: strata controller keeps it
	// where the Tofu Controller keeps its plan, for tfctl and review bots.
	// A failure is the run's warning, not its error. Never encoded: each
	// executor sets its own.
	SavePlan func(ctx context.Context, p SavedPlan) error `json:"-"`
	// DriftText asks, for a drift plan with changes, the plan as tofu
	// show prints it (Result.DriftText): strata controller's drift
	// message, as the Tofu Controller's.
	DriftText bool `json:",omitempty"`
	// ReportedLock is the state lock the stack's last pass reported held
	// (strata controller's status.lock.pending): with
	// spec.tfstate.forceUnlock: auto it is released, as the Tofu
	// Controller releases it.
	ReportedLock string `json:",omitempty"`
}

// Result is what a run did.
type Result struct {
	Stack string
	// Run is the recorded run, and Run.Result the stack's result, always
	// set. Its Number is 0 when nothing was recorded (an unchanged stack
	// that was not re-planned, a failure that could not be recorded).
	Run history.Run
	// Changes are the planned resource changes, as "verb address".
	Changes []string
	// Review is the policy's word on the plan, when there was a plan with
	// changes.
	Review *Review
	// Message is the run's last log line, without "run #N finished…".
	Message string
	// Why says what caused the change, in a sentence.
	Why string
	// Downstream are the consumers that will re-plan because of this
	// stack's plan, and the keys they read that it changes.
	Downstream []Downstream
	// ContractChanged are the keys of the stack's contract ("public.vpc_id")
	// whose value the plan changes, or only knows after apply.
	ContractChanged []string
	// DriftText is, for a drift plan with changes that the request asked
	// it of (Request.DriftText), the plan as tofu show prints it.
	DriftText string `json:",omitempty"`
	// FetchFailed is set when the stack's code could not be fetched
	// (source.FetchError): nothing of it ran.
	FetchFailed bool `json:",omitempty"`
	// Next is, for a plan operation, the contract the plan would publish
	// when all of it is known before apply: its consumers' plans can be
	// previewed against it (Request.Preview).
	Next *contracts.Document
}

// WaitingError means a consumed contract does not exist yet. The stack is
// not failed: the next reconcile tries again.
type WaitingError struct {
	Stack, Contract, Key, Producer string
}

func (e *WaitingError) Error() string {
	msg := fmt.Sprintf("waiting for contract %s (%s)", e.Contract, e.Key)
	if e.Producer != "" {
		msg += fmt.Sprintf(", which stack %s publishes when it is applied", e.Producer)
	}
	return msg
}

// HeldError means the plan has changes that need a person's approval.
type HeldError struct {
	Stack, PlanID, Reason string
	// PlanFile is the held copy of the plan, kept with its JSON and summary.
	PlanFile string
	// Approve is the command that approves this exact plan.
	Approve string
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("plan %s held for approval: %s; review %s, then approve it with: %s",
		e.PlanID, e.Reason, filepath.Join(filepath.Dir(e.PlanFile), "summary.md"), e.Approve)
}

// Run runs one stack and records it. The returned error is nil when the
// stack is in its desired state (or, for a plan, planned); a
// *WaitingError, a *HeldError or a failure otherwise. Either way the
// Result's Run.Result says how the stack ended.
//
// The stack's run is two lists of steps: the first decides whether it
// runs at all; then the run begins, is recorded as running, and the
// second runs under the run's timeout.
func (r *Runner) Run(ctx context.Context, req Request) (Result, error) {
	if req.Removal != nil {
		return r.RemoveDeleted(ctx, req)
	}
	st := r.newState(req, nil)
	st.run.ToVersion, st.run.Digest = req.Artifact.Version, req.Artifact.Digest
	st.applied = "the infrastructure is up to date"
	if err := do(ctx, st, []step{
		r.adopt,
		r.skipSuspended,
		r.keepFrozen,
		r.waitToRetry,
		r.gatherInputs,
		r.readLastGood,
		r.checkState,
		r.skipWhenUpToDate,
	}); err != nil || st.done {
		return r.notBegun(ctx, st, err)
	}
	if err := r.begin(ctx, st); err != nil {
		return r.unrecorded(st, err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	return r.finish(ctx, st, do(ctx, st, []step{
		r.prepare,
		r.init,
		r.selectWorkspace,
		r.checkLock,
		r.plan,
		r.classifyCause,
		r.driftText,
		r.saveNoChanges,
		r.noChanges,
		r.detectOnly,
		r.checkContract,
		r.webhooks,
		r.review,
		r.savePlan,
		r.planned,
		r.gate,
		r.apply,
		r.noteState,
		r.inventory,
		r.publish,
		r.healthCheck,
	}))
}

// newState starts the state of a run of req: its run, as it will be
// begun, names the stack and what was asked.
func (r *Runner) newState(req Request, removal *RemoveRequest) *runState {
	started := r.cfg.Now()
	return &runState{
		req:     req,
		log:     r.cfg.Logger.With("stack", req.Stack.Name),
		started: started,
		removal: removal,
		run: history.Run{
			Client: req.Client, Env: req.Env, Stack: req.Stack.Name, Namespace: req.Stack.Namespace,
			Operation: req.Operation,
			StartedAt: started.UTC(),

			DestroyResourcesOnDeletion: req.Stack.DestroyResourcesOnDeletion,
		},
	}
}

func (r *Runner) contractKey(name string) string {
	return contracts.Key(r.cfg.ContractPrefix, name)
}

// workspaceDir is the stack's workspace under the state directory.
func (r *Runner) workspaceDir(req Request) (string, error) {
	return r.workspacePath(req.Client, req.Env, req.Stack.Name)
}

// workspacePath is the workspace of a stack named by client, environment
// and name, under the state directory.
func (r *Runner) workspacePath(client, env, stack string) (string, error) {
	return r.paths.Join(r.cfg.StateDir, statedir.Work, client, env, stack)
}

func mode(s *environment.Stack) string {
	switch s.ApprovePlan {
	case environment.ApprovePlanAuto, environment.ApprovePlanDisable:
		return s.ApprovePlan
	}
	return "manual"
}

func versionOrDigest(a source.Artifact) string {
	if a.Version != "" {
		return a.Version
	}
	if len(a.Digest) > 15 {
		return a.Digest[:15]
	}
	return a.Digest
}

// round keeps a duration readable: milliseconds under a second, tenths of
// a second under a minute, whole seconds above.
func round(d time.Duration) time.Duration {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond)
	case d < time.Minute:
		return d.Round(100 * time.Millisecond)
	default:
		return d.Round(time.Second)
	}
}

// explainLock says plainly when tofu could not take the state lock: another
// process holds it. tofu's own message, kept in full, carries the lock's
// ID, path, holder and operation.
func explainLock(err error) error {
	if isLockError(err) {
		return fmt.Errorf("the state is locked by another process, so nothing was changed; the next reconcile tries again (strata releases a lock only with strata unlock, with spec.tfstate.forceUnlock: yes and the lock's ID in spec.tfstate.lockIdentifier, or with forceUnlock: auto when its holder is provably dead or the last pass reported it): %w", err)
	}
	return err
}

// isLockError reports whether tofu failed because another holds the
// state lock (its diagnostic, not its text).
func isLockError(err error) bool {
	var te *tofu.Error
	if !errors.As(err, &te) {
		return false
	}
	for _, d := range te.Diagnostics {
		if d.Summary == tofu.SummaryStateLocked {
			return true
		}
	}
	return false
}
