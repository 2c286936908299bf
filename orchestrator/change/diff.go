package change

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source"
)

// Causes of a stack's change between the base and the work tree.
const (
	CauseVersion   = "version"   // its version changed
	CauseCode      = "code"      // its code changed at the same version
	CauseVariables = "variables" // its own variables changed
	CauseSpec      = "spec"      // a field of its Terraform object changed
	CauseNew       = "new"       // the stack is new
	CauseRemoved   = "removed"   // the stack left the environment
	CauseContract  = "contract"  // a contract it reads is produced by a stack that changes
	CauseBlocked   = "blocked"   // a problem in its chain holds it back at the work tree
)

// Statuses of an environment.
const (
	EnvChanged   = "changed"
	EnvUnchanged = "unchanged"
	EnvNew       = "new"
	EnvRemoved   = "removed"
	// EnvInvalid: the environment does not load at the work tree; what
	// changes cannot be said (see Problems).
	EnvInvalid = "invalid"
)

// Report is what a pull request changes, environment by environment.
type Report struct {
	// Base is the base revision as named, Commit the commit it is.
	Base   string `json:"base"`
	Commit string `json:"commit"`
	// Environments are sorted by directory.
	Environments []Env `json:"environments"`
}

// Env is what changes in one environment.
type Env struct {
	// Dir is the environment's directory, relative to the repository root.
	Dir    string `json:"dir"`
	Client string `json:"client"`
	Name   string `json:"name"`
	Class  string `json:"environmentClass,omitempty"`
	Status string `json:"status"`
	// Stacks are the stacks that change, sorted by name.
	Stacks []Stack `json:"stacks"`
	// Unchanged are the names of the others.
	Unchanged []string `json:"unchanged"`
	// Problems are the work tree's problems, for an invalid environment;
	// Notes say what else a reader should know (the base did not load).
	Problems diag.Problems `json:"problems,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
}

// Stack is one stack that changes.
type Stack struct {
	Stack string `json:"stack"`
	Layer string `json:"layer"`
	// Cause is one of the Cause constants: its own first, then contract.
	Cause string `json:"cause"`
	// Why says it in a sentence. It names variables, never their values.
	Why string `json:"why"`
	// From and To are its version at the base and at the work tree, as
	// the repository writes it.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Reads are the contracts it reads whose producers change.
	Reads []Read `json:"reads,omitempty"`
	// Produces is the contract it publishes, and Consumers the stacks of
	// the environment that read it, which re-plan after it.
	Produces  string   `json:"produces,omitempty"`
	Consumers []string `json:"consumers,omitempty"`
}

// Read is a contract a stack reads, and the stack that produces it.
type Read struct {
	Contract string `json:"contract"`
	Producer string `json:"producer"`
}

// Changed reports whether any stack of any environment changes.
func (r *Report) Changed() bool {
	return slices.ContainsFunc(r.Environments, func(e Env) bool { return len(e.Stacks) > 0 })
}

// Invalid lists the environments that do not load at the work tree.
func (r *Report) Invalid() []Env {
	var out []Env
	for _, e := range r.Environments {
		if e.Status == EnvInvalid {
			out = append(out, e)
		}
	}
	return out
}

// Identity is the environment's client/env.
func (e Env) Identity() string { return e.Client + "/" + e.Name }

// Stack returns the change of the named stack, or nil.
func (e Env) Stack(name string) *Stack {
	for i := range e.Stacks {
		if e.Stacks[i].Stack == name {
			return &e.Stacks[i]
		}
	}
	return nil
}

// Diff compares the environments dirs (relative to the repository root)
// at the work tree root and at the checkout base: every environment either
// holds when dirs is empty (Discover). Environments load side by side, a
// few at a time.
func Diff(ctx context.Context, root string, base *Checkout, dirs []string) (*Report, error) {
	if len(dirs) == 0 {
		head, err := Discover(root)
		if err != nil {
			return nil, err
		}
		old, err := Discover(base.Dir)
		if err != nil {
			return nil, err
		}
		dirs = append(head, old...)
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	type pair struct {
		head, base       *environment.Environment
		headErr, baseErr error
	}
	loaded := make([]pair, len(dirs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, dir := range dirs {
		for side, r := range []string{root, base.Dir} {
			g.Go(func() error {
				env, err := load(ctx, filepath.Join(r, filepath.FromSlash(dir)))
				if side == 0 {
					loaded[i].head, loaded[i].headErr = env, err
				} else {
					loaded[i].base, loaded[i].baseErr = env, err
				}
				return nil
			})
		}
	}
	_ = g.Wait() // each error is its environment's, kept in loaded
	if ctx.Err() != nil {
		return nil, fmt.Errorf("load the environments at %s and in the work tree: stopped (%w)", base.Ref, context.Cause(ctx))
	}
	rep := &Report{Base: base.Ref, Commit: base.Commit}
	heads := &source.Resolver{Root: root}
	bases := &source.Resolver{Root: base.Dir}
	for i, dir := range dirs {
		p := loaded[i]
		e, err := compareEnv(ctx, dir, p.base, p.head, p.baseErr, p.headErr, bases, heads)
		if err != nil {
			return nil, err
		}
		rep.Environments = append(rep.Environments, e)
	}
	return rep, nil
}

// errMissing: the environment's directory is not there at that revision.
var errMissing = errors.New("no such environment")

// load loads one side of an environment: nil and errMissing when it is
// not there.
func load(ctx context.Context, dir string) (*environment.Environment, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, errMissing
	}
	return flux.Load(ctx, dir)
}

// compareEnv compares one environment's two sides.
func compareEnv(ctx context.Context, dir string, base, head *environment.Environment, baseErr, headErr error, bases, heads *source.Resolver) (Env, error) {
	e := Env{Dir: dir, Stacks: []Stack{}, Unchanged: []string{}}
	var problems diag.Problems
	switch {
	case errors.Is(headErr, errMissing) && errors.Is(baseErr, errMissing):
		return e, fmt.Errorf("diff %s: no environment there, at the work tree or at the base", dir)
	case errors.Is(headErr, errMissing):
		// Removed: every stack it had leaves with it.
	case headErr != nil && errors.As(headErr, &problems) && head != nil:
		e.Status, e.Problems = EnvInvalid, problems
		e.Client, e.Name, e.Class = head.Client, head.Name, head.Class
		return e, nil
	case headErr != nil:
		return e, fmt.Errorf("diff %s: %w", dir, headErr)
	}
	switch {
	case errors.Is(baseErr, errMissing):
		base = nil
	case baseErr != nil && errors.As(baseErr, &problems) && base != nil:
		// What loaded of the base is compared: the work tree fixes it.
		e.Notes = append(e.Notes, fmt.Sprintf("the base does not load without problems (%d): its stacks are compared as far as they loaded", len(problems)))
	case baseErr != nil:
		e.Notes = append(e.Notes, fmt.Sprintf("the base does not load (%v): every stack is compared as new", baseErr))
		base = nil
	}
	side := head
	if side == nil {
		side = base
	}
	e.Client, e.Name, e.Class = side.Client, side.Name, side.Class
	switch {
	case head == nil:
		e.Status = EnvRemoved
	case base == nil:
		e.Status = EnvNew
	}
	byName := map[string]*Stack{}
	var list []*Stack
	add := func(s Stack) {
		list = append(list, &s)
		byName[s.Stack] = &s
	}
	var names []string
	for _, s := range stacksOf(head) {
		names = append(names, s.Name)
	}
	for _, s := range stacksOf(base) {
		names = append(names, s.Name)
	}
	blocked := map[string]environment.Blocked{}
	if head != nil {
		for _, bl := range head.Blocked {
			if bl.Stack != "" {
				blocked[bl.Stack] = bl
				names = append(names, bl.Stack)
			}
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	var changes []Stack
	for _, name := range names {
		h, b := stackOf(head, name), stackOf(base, name)
		if bl, ok := blocked[name]; ok {
			// Neither removed nor planned: the pull request leaves it
			// blocked, and the review says why.
			layer := "(blocked)"
			if b != nil {
				layer = b.Layer.String()
			}
			if b != nil || !(base != nil && base.IsBlocked(name)) {
				changes = append(changes, Stack{Stack: name, Layer: layer, Cause: CauseBlocked, Why: bl.String()})
			}
			continue
		}
		switch {
		case b == nil:
			changes = append(changes, Stack{Stack: name, Layer: h.Layer.String(), Cause: CauseNew, Why: fmt.Sprintf("new in %s", h.File), To: h.Version})
		case h == nil:
			changes = append(changes, Stack{Stack: name, Layer: b.Layer.String(), Cause: CauseRemoved, Why: fmt.Sprintf("removed from the environment (it was in %s)", b.File), From: b.Version})
		default:
			c, err := compareStack(ctx, b, h, bases, heads)
			if err != nil {
				return e, fmt.Errorf("diff %s: %w", dir, err)
			}
			if c.Cause != "" {
				c.Stack, c.Layer = name, h.Layer.String()
				changes = append(changes, c)
			}
		}
	}
	for _, c := range changes {
		add(c)
	}
	following(changes, head, base, byName, add)
	for _, c := range list {
		if s := stackOf(head, c.Stack); s != nil {
			c.Produces = s.Produces
		}
	}
	// Each producer names the consumers of the work tree that re-plan.
	for _, p := range list {
		for _, c := range list {
			if slices.ContainsFunc(c.Reads, func(r Read) bool { return r.Producer == p.Stack }) {
				p.Consumers = append(p.Consumers, c.Stack)
			}
		}
		e.Stacks = append(e.Stacks, *p)
	}
	slices.SortFunc(e.Stacks, func(a, b Stack) int { return strings.Compare(a.Stack, b.Stack) })
	for _, s := range stacksOf(head) {
		if _, ok := byName[s.Name]; !ok {
			e.Unchanged = append(e.Unchanged, s.Name)
		}
	}
	if e.Status == "" {
		e.Status = EnvUnchanged
		if len(e.Stacks) > 0 {
			e.Status = EnvChanged
		}
	}
	return e, nil
}

// following adds, until none is left, each stack of the work tree that
// reads a contract whose producer changes (at either side: a removed
// producer, a producer that renames its contract), naming the producer.
func following(changed []Stack, head, base *environment.Environment, byName map[string]*Stack, add func(Stack)) {
	if head == nil {
		return
	}
	// changedContracts maps each contract a changed stack produces, at
	// either side, to that stack.
	changedContracts := map[string]string{}
	note := func(name string) {
		for _, env := range []*environment.Environment{head, base} {
			if s := stackOf(env, name); s != nil && s.Produces != "" {
				changedContracts[s.Produces] = name
			}
		}
	}
	for _, c := range changed {
		note(c.Stack)
	}
	for {
		grew := false
		for _, s := range head.Stacks {
			reads := readsOf(s, changedContracts)
			if len(reads) == 0 {
				continue
			}
			c := byName[s.Name]
			if c == nil {
				var why []string
				for _, r := range reads {
					why = append(why, fmt.Sprintf("contract %s, which %s produces", r.Contract, r.Producer))
				}
				add(Stack{Stack: s.Name, Layer: s.Layer.String(), Cause: CauseContract, Why: "it reads " + strings.Join(why, "; ") + ", and that stack changes", From: s.Version, To: s.Version})
				c = byName[s.Name]
				note(s.Name)
				grew = true
			}
			for _, r := range reads {
				if !slices.Contains(c.Reads, r) {
					c.Reads = append(c.Reads, r)
				}
			}
		}
		if !grew {
			return
		}
	}
}

// readsOf lists the changed contracts s reads, by name or by regular
// expression, never its own.
func readsOf(s *environment.Stack, changed map[string]string) []Read {
	var out []Read
	for _, contract := range slices.Sorted(maps.Keys(changed)) {
		producer := changed[contract]
		if producer == s.Name {
			continue
		}
		reads := slices.Contains(s.ContractsRead(), contract)
		for _, m := range s.ConsumesMatching {
			reads = reads || m.Matches(contract)
		}
		if reads {
			out = append(out, Read{Contract: contract, Producer: producer})
		}
	}
	return out
}

// compareStack compares a stack present at both sides, through
// runner.Compare.
func compareStack(ctx context.Context, b, h *environment.Stack, bases, heads *source.Resolver) (Stack, error) {
	ba, err := pin(ctx, bases, b)
	if err != nil {
		return Stack{}, err
	}
	ha, err := pin(ctx, heads, h)
	if err != nil {
		return Stack{}, err
	}
	c, err := runner.Compare(b, h, ba, ha)
	if err != nil {
		return Stack{}, err
	}
	// The versions as the run would be handed them (an OCI source's ref
	// as written), else as the repository writes them.
	out := Stack{Why: c.Why, From: cmpOr(ba.Version, b.Version), To: cmpOr(ha.Version, h.Version)}
	switch {
	case c.Cause == "":
		return Stack{}, nil
	case c.Cause == runner.CauseUpgrade:
		out.Cause = CauseVersion
	case c.Cause == runner.CauseVariables:
		out.Cause = CauseVariables
	case c.Code:
		out.Cause = CauseCode
		out.Why = "its code changed at version " + orNone(ha.Version)
	default:
		out.Cause = CauseSpec
	}
	return out, nil
}

// pin is a stack's code as a run would be handed it, without asking a
// registry: this repository's own code by its content hash, any other
// source by the reference the repository writes.
func pin(ctx context.Context, r *source.Resolver, s *environment.Stack) (source.Artifact, error) {
	if s.Source.Kind == environment.SourceGitRepository && s.Source.Name == environment.DefaultGitSource {
		res, err := r.Resolve(ctx, s)
		if err != nil {
			return source.Artifact{}, err
		}
		return source.Artifact{Version: res.Version, Digest: res.Digest}, nil
	}
	ref := s.Source.Digest
	if ref == "" {
		ref = s.Source.Semver
	}
	if ref == "" {
		ref = s.Source.Tag
	}
	version := ref
	if ref == s.Source.Digest {
		version = s.Version
	}
	return source.Artifact{
		Version: version,
		Digest:  fmt.Sprintf("%s/%s %s %s@%s", s.Source.Kind, s.Source.Name, s.Source.URL, s.Path, ref),
	}, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func stacksOf(env *environment.Environment) []*environment.Stack {
	if env == nil {
		return nil
	}
	return env.Stacks
}

func stackOf(env *environment.Environment, name string) *environment.Stack {
	if env == nil {
		return nil
	}
	return env.Stack(name)
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
