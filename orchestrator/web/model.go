package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/statedir"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// runsShown is how many runs of a stack the view reads.
const runsShown = 20

// envView is one environment as the pages show it.
type envView struct {
	Dir, Client, Name, Class string
	// RepoDir is the environment's directory in its repository
	// (environments/<client>/<env>).
	RepoDir string
	// Problem says why the environment could not be loaded; the rest is
	// then empty.
	Problem string
	env     *environment.Environment
	set     environment.Settings
	graph   *graph.Graph
	records envstores.Records
	// StateDir is the environment's state directory, absolute.
	StateDir string
	Stacks   []stackView
	// Running is true while a reconcile of it runs; LiveErr is why the
	// loop's last reconcile could not run.
	Running bool
	LiveErr string
	report  *report.Report
	// History says where the runs come from: HistoryAsOf is when they were
	// read, HistoryBusy that a reconcile held the file at this request.
	HistoryAsOf time.Time
	HistoryBusy bool
	HistoryErr  string
	// Keeps says how far back the history goes: what it keeps of each
	// stack's runs (envstores.Retention), and KeptSince the start of
	// the days it keeps whole (zero when it keeps by count alone).
	Keeps     string
	KeptSince time.Time
}

// stackView is one stack of an environment.
type stackView struct {
	Client, Env, Name, Layer string
	// Result and Cause are of the last reconcile, else of the last run.
	Result history.Result
	Cause  string
	// Applied is the version of the last successful apply; Resolved what
	// the last reconcile resolved; Newer is true when Resolved is a higher
	// version than Applied.
	Applied, Resolved string
	Newer             bool
	Runs              []history.Run
	report            *report.StackReport
	// Removed is true for a stack that left the environment but has runs.
	Removed bool
	// Blocked says why a problem in its Kustomization's chain holds the
	// stack back (or, with Result waiting, which input it waits for).
	Blocked string
}

// snapshot is the runs of every stack, as read from one history file,
// with each stack's last good run (history.Store.LastGood).
type snapshot struct {
	runs map[string][]history.Run
	good map[string]history.Run
	at   time.Time
}

func runKey(client, env, stack string) string { return client + "\x00" + env + "\x00" + stack }

// environments loads every configured environment with its runs and what
// the loop knows of it.
func (s *Server) environments(ctx context.Context) []*envView {
	live := map[string]Live{}
	if s.cfg.Live != nil {
		for _, l := range s.cfg.Live() {
			live[filepath.Clean(l.Dir)] = l
		}
	}
	out := make([]*envView, 0, len(s.cfg.Environments))
	for _, dir := range s.cfg.Environments {
		v := &envView{Dir: dir}
		out = append(out, v)
		if l, ok := live[filepath.Clean(dir)]; ok {
			v.Running, v.LiveErr, v.report = l.Running, l.Err, l.Report
		}
		env, g, err := validate.Environment(ctx, dir)
		if env != nil {
			v.Client, v.Name, v.Class = env.Client, env.Name, env.Class
		}
		if err != nil {
			v.Problem = oneLine(err.Error())
			if v.Client == "" {
				v.Client, v.Name = filepath.Base(filepath.Dir(dir)), filepath.Base(dir)
			}
			continue
		}
		v.env, v.graph, v.RepoDir = env, g, env.Dir
		set, err := env.SettingsWith(environment.Overrides{StateDir: s.cfg.StateDir})
		if err != nil {
			v.Problem = oneLine(err.Error())
			continue
		}
		v.set, v.StateDir, v.records = set, set.StateDir, s.cfg.Records
		s.fillStacks(ctx, v)
	}
	return out
}

// fillStacks reads the environment's stacks in graph order, with their runs
// and last results.
func (s *Server) fillStacks(ctx context.Context, v *envView) {
	var (
		snap snapshot
		busy bool
		err  error
	)
	if v.records != nil {
		snap, err = s.readRecords(ctx, v)
	} else {
		snap, busy, err = s.readHistory(ctx, envstores.HistoryFile(v.set))
	}
	v.HistoryAsOf, v.HistoryBusy = snap.at, busy
	keep := envstores.Retention(v.set)
	v.Keeps = keep.String()
	if keep.Age > 0 {
		v.KeptSince = snap.at.Add(-keep.Age)
	}
	if err != nil {
		v.HistoryErr = oneLine(err.Error())
	}
	reports := map[string]*report.StackReport{}
	if v.report != nil {
		for i := range v.report.Stacks {
			reports[v.report.Stacks[i].Stack] = &v.report.Stacks[i]
		}
	}
	names := v.graph.Order()
	blocked := map[string]environment.Blocked{}
	for _, b := range v.env.Blocked {
		name := b.Name()
		blocked[name] = b
		names = append(names, name)
	}
	for _, rs := range reports {
		if !slices.Contains(names, rs.Stack) {
			names = append(names, rs.Stack)
		}
	}
	for _, name := range names {
		sv := stackView{Client: v.Client, Env: v.Name, Name: name, Runs: snap.runs[runKey(v.Client, v.Name, name)], report: reports[name]}
		b, isBlocked := blocked[name]
		switch st := v.env.Stack(name); {
		case st != nil:
			sv.Layer = st.Layer.String()
		case isBlocked:
			sv.Layer, sv.Blocked = "(blocked)", b.Reason
		default:
			sv.Removed, sv.Layer = true, "removed"
		}
		if good, ok := snap.good[runKey(v.Client, v.Name, name)]; ok {
			sv.Applied = good.ToVersion
		}
		if len(sv.Runs) > 0 {
			sv.Result, sv.Cause = sv.Runs[0].Result, sv.Runs[0].Cause
		}
		if rs := sv.report; rs != nil {
			sv.Result, sv.Resolved = rs.Result, rs.Version
			sv.Cause = cmp.Or(rs.Cause, sv.Cause)
			if sv.Applied == "" && rs.Result == history.ResultUnchanged {
				sv.Applied = rs.Version
			}
		}
		if isBlocked {
			// Whatever its last run was, it does not run now.
			sv.Result = history.ResultBlocked
			if b.Waiting {
				sv.Result, sv.Layer = history.ResultWaiting, "(waiting)"
			}
		}
		sv.Newer = newer(sv.Resolved, sv.Applied)
		v.Stacks = append(v.Stacks, sv)
	}
}

// newer reports whether version a is higher than b; versions that are not
// semver are newer when they differ.
func newer(a, b string) bool {
	if a == "" || b == "" || a == b {
		return false
	}
	va, erra := semver.NewVersion(a)
	vb, errb := semver.NewVersion(b)
	if erra != nil || errb != nil {
		return true
	}
	return va.GreaterThan(vb)
}

// readHistory reads the runs of every stack from a history file, read
// only. While a reconcile holds the file, it reads the snapshot the
// reconcile made when it began, and says busy; when even that cannot be
// read, it returns the runs it read last. A history that does not exist
// yet has no runs, and is not created.
func (s *Server) readHistory(ctx context.Context, path string) (snapshot, bool, error) {
	s.histMu.Lock()
	defer s.histMu.Unlock()
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return snapshot{at: s.cfg.Now()}, false, nil
	}
	h, err := history.Open(ctx, path, history.ReadOnly())
	if errors.Is(err, history.ErrBusy) {
		return s.snapshots[path], true, nil
	}
	if err != nil {
		return s.snapshots[path], false, err
	}
	defer h.Close()
	busy := h.FromSnapshot()
	snap := snapshot{runs: map[string][]history.Run{}, good: map[string]history.Run{}, at: s.cfg.Now()}
	for _, e := range s.cfg.Environments {
		env, _ := flux.Load(ctx, e)
		if env == nil {
			continue
		}
		if err := readRuns(ctx, h, env.Client, env.Name, snap); err != nil {
			return s.snapshots[path], false, err
		}
	}
	s.snapshots[path] = snap
	return snap, busy, nil
}

// readRecords reads the runs of the environment's stacks from its records
// (Config.Records), read only.
func (s *Server) readRecords(ctx context.Context, v *envView) (snapshot, error) {
	snap := snapshot{runs: map[string][]history.Run{}, good: map[string]history.Run{}, at: s.cfg.Now()}
	h, _, closeHistory, err := v.records.OpenHistory(ctx, v.env, v.set, true)
	if err != nil {
		return snap, err
	}
	defer closeHistory()
	return snap, readRuns(ctx, h, v.Client, v.Name, snap)
}

// runReader reads the runs of an environment's stacks.
type runReader interface {
	Stacks(ctx context.Context, client, env string) ([]string, error)
	List(ctx context.Context, client, env, stack string, limit int) ([]history.Run, error)
	LastGood(ctx context.Context, client, env, stack string) (history.Run, bool, error)
}

// readRuns reads into snap the shown runs and the last good run of every
// stack of client/env that has runs.
func readRuns(ctx context.Context, h runReader, client, env string, snap snapshot) error {
	stacks, err := h.Stacks(ctx, client, env)
	if err != nil {
		return err
	}
	for _, st := range stacks {
		runs, err := h.List(ctx, client, env, st, runsShown)
		if err != nil {
			return err
		}
		snap.runs[runKey(client, env, st)] = runs
		good, ok, err := h.LastGood(ctx, client, env, st)
		if err != nil {
			return err
		}
		if ok {
			snap.good[runKey(client, env, st)] = good
		}
	}
	return nil
}

// find returns the environment named client/env.
func find(envs []*envView, client, name string) *envView {
	for _, v := range envs {
		if v.Client == client && v.Name == name {
			return v
		}
	}
	return nil
}

// stack returns the environment's stack of that name.
func (v *envView) stack(name string) *stackView {
	for i := range v.Stacks {
		if v.Stacks[i].Name == name {
			return &v.Stacks[i]
		}
	}
	return nil
}

// heldReader reads an environment's held plans and their approvals.
type heldReader interface {
	HeldPlans(ctx context.Context, client, env, stack string) ([]approval.Held, error)
	Approved(ctx context.Context, client, env, stack, id string) (approval.Approval, bool, error)
}

// heldStore is the environment's store of held plans: its records', else
// the state directory's.
func (v *envView) heldStore(ctx context.Context) (heldReader, error) {
	if v.records != nil {
		return v.records.OpenApprovals(ctx, v.env, v.set)
	}
	return approval.New(filepath.Join(v.StateDir, statedir.Held)), nil
}

// heldPlans lists every held plan of the environment, of stacks still in
// it and of stacks that left it, newest first.
func (v *envView) heldPlans(ctx context.Context) ([]approval.Held, error) {
	if v.env == nil {
		return nil, nil
	}
	stacks, err := v.heldStacks(ctx)
	if err != nil {
		return nil, fmt.Errorf("list held plans of %s/%s: %w", v.Client, v.Name, err)
	}
	store, err := v.heldStore(ctx)
	if err != nil {
		return nil, err
	}
	var out []approval.Held
	for _, st := range stacks {
		hs, err := store.HeldPlans(ctx, v.Client, v.Name, st)
		if err != nil {
			return nil, err
		}
		out = append(out, hs...)
	}
	slices.SortFunc(out, func(a, b approval.Held) int { return b.HeldAt.Compare(a.HeldAt) })
	return out, nil
}

// heldStacks are the stacks that may have held plans: in the state
// directory, those with a directory of held plans; in other records, the
// stacks of the environment and those that have runs (a removed stack's
// destroy plan is held too).
func (v *envView) heldStacks(ctx context.Context) ([]string, error) {
	if v.records == nil {
		dir, err := statedir.Join(v.StateDir, statedir.Held, v.Client, v.Name)
		if err != nil {
			return nil, err
		}
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		var out []string
		for _, e := range entries {
			if e.IsDir() {
				out = append(out, e.Name())
			}
		}
		return out, nil
	}
	h, _, closeHistory, err := v.records.OpenHistory(ctx, v.env, v.set, true)
	if err != nil {
		return nil, err
	}
	defer closeHistory()
	out, err := h.Stacks(ctx, v.Client, v.Name)
	if err != nil {
		return nil, err
	}
	for _, name := range v.graph.Order() {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

func oneLine(s string) string {
	out := make([]rune, 0, len(s))
	space := false
	for _, r := range s {
		if r == '\n' || r == '\t' || r == ' ' || r == '\r' {
			if !space && len(out) > 0 {
				out = append(out, ' ')
			}
			space = true
			continue
		}
		space = false
		out = append(out, r)
	}
	return string(out)
}
