package daemon

import (
	"cmp"
	"errors"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/scheduler"
	"github.com/strata-iac/strata/orchestrator/web"
)

// DefaultInterval is the wait between the end of one pass and the start of
// the next.
const DefaultInterval = 5 * time.Minute

// Config configures a Daemon.
type Config struct {
	// Environments are the environment directories, reconciled side by
	// side.
	Environments []string
	// Interval is the wait between the end of one pass over every
	// environment and the start of the next (DefaultInterval when zero).
	Interval time.Duration
	// Pipeline runs each environment's reconcile and approvals: package
	// reconcile's, with the options of every reconcile (reconcile.Pipeline).
	// Its run log, when it names none, is Logger.
	Pipeline Pipeline
	// Token is the bearer token of the /api endpoints. Empty, they answer
	// 403. It is also the status token of the web view.
	Token string
	// WebView serves the web view at / (see package web): read with Token,
	// approve with ApproverToken, or with Token when ApproverToken is
	// empty.
	WebView       bool
	ApproverToken string
	// Elector, when set, lets this process run passes only while it leads;
	// a process that does not lead serves everything else, and is not
	// ready.
	Elector Elector
	// Logger receives the daemon's own lines.
	Logger *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Daemon reconciles environments in a loop and serves their state.
type Daemon struct {
	cfg     Config
	log     *slog.Logger
	trigger chan struct{}
	reg     *prometheus.Registry
	metrics *metrics
	// web is the web view; nil unless Config.WebView.
	web *web.Server
	// runLog is where the reconciles' run logs go, and runners the
	// runner pool every environment of a pass shares.
	runLog  *slog.Logger
	runners *scheduler.Pool

	mu   sync.Mutex
	envs []*envState
	// next is when the next pass starts; zero while a pass runs.
	next time.Time
}

// envState is what the daemon knows of one environment.
type envState struct {
	dir string
	// client and name come from the environment's init ConfigMap, once it
	// could be read.
	client, name string
	// reconciles counts the reconciles started.
	reconciles int
	running    bool
	// done is set once a reconcile finished, with a report or an error.
	done       bool
	report     *report.Report
	err        error
	startedAt  time.Time
	finishedAt time.Time
}

// label names the environment in logs and readiness lines: client/env, or
// its directory until its init ConfigMap was read.
func (e *envState) label() string {
	if e.client != "" || e.name != "" {
		return e.client + "/" + e.name
	}
	return e.dir
}

// New returns a Daemon. It fails when no environment is given.
func New(cfg Config) (*Daemon, error) {
	if len(cfg.Environments) == 0 {
		return nil, errors.New("new daemon: no environment to reconcile")
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Pipeline == nil {
		return nil, errors.New("new daemon: no pipeline to run the reconciles")
	}
	d := &Daemon{
		cfg:     cfg,
		log:     cfg.Logger,
		trigger: make(chan struct{}, 1),
		runLog:  cmp.Or(cfg.Pipeline.RunLog(), cfg.Logger),
	}
	pool, size := cfg.Pipeline.Runners()
	if pool == nil {
		// One limit for the whole loop: the environments of a pass run
		// side by side and share it.
		if size <= 0 {
			size = environment.DefaultRunners()
		}
		pool = scheduler.NewPool(size)
	}
	d.runners = pool
	if cfg.WebView {
		stateDir, records := cfg.Pipeline.Records()
		w, err := web.New(web.Config{
			Environments: cfg.Environments, StateDir: stateDir, Records: records,
			ReadToken: cfg.Token, ApproveToken: cfg.ApproverToken,
			Live: d.live, Approve: d.webApprove, Logger: cfg.Logger, Now: cfg.Now,
		})
		if err != nil {
			return nil, err
		}
		d.web = w
		// The run log also goes to the web view's live updates.
		d.runLog = slog.New(slog.NewMultiHandler(d.runLog.Handler(), w.LogHandler()))
	}
	seen := map[string]bool{}
	for _, dir := range cfg.Environments {
		dir = filepath.Clean(dir)
		if !seen[dir] {
			seen[dir] = true
			d.envs = append(d.envs, &envState{dir: dir})
		}
	}
	d.reg, d.metrics = newMetrics(d)
	return d, nil
}

// Trigger asks for a pass now: at once when the loop waits, or right after
// the pass that runs. Triggers while one is pending are merged.
func (d *Daemon) Trigger() {
	select {
	case d.trigger <- struct{}{}:
	default:
	}
}
