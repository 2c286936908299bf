package tofu

import (
	"context"
	"fmt"
)

// PlanOptions configure a plan.
type PlanOptions struct {
	// Out is the plan file to write, relative to the workspace or absolute.
	Out string
	// VarFiles are passed with -var-file, in order.
	VarFiles []string
	// Destroy plans the destruction of every resource.
	Destroy bool
	// LockTimeout is how long to wait for a state lock ("0s" by default).
	LockTimeout string
	// NoLock plans without the state lock (-lock=false).
	NoLock bool
	// Targets are passed with -target, in order: only they (and what
	// they depend on) are planned.
	Targets []string
	// Parallelism is passed with -parallelism when above 0 (tofu's
	// default otherwise).
	Parallelism int
}

// runArgs are the flags that plan and apply share.
func runArgs(targets []string, parallelism int) []string {
	var args []string
	for _, t := range targets {
		args = append(args, "-target="+t)
	}
	if parallelism > 0 {
		args = append(args, fmt.Sprintf("-parallelism=%d", parallelism))
	}
	return args
}

// Plan runs `tofu plan -out -json -detailed-exitcode` and reports whether
// the plan has changes: tofu exited 2, or its JSON stream announced a
// change (a planned or drifted resource, a non-zero change summary, an
// output that is not a no-op). A plan without changes needs no
// `show -json`. Progress reaches events as it happens.
//
// The plan is run directly rather than through terraform-exec, which asks
// `tofu version -json` once per workspace: the version is read once per
// binary instead (see Version) and checked against MinVersion, the oldest
// tofu with every flag passed here.
func (w *Workspace) Plan(ctx context.Context, opts PlanOptions, events func(Event)) (bool, error) {
	if err := w.checkVersion(ctx); err != nil {
		return false, fmt.Errorf("tofu plan: %w", err)
	}
	ew := newEventWriter(events)
	switch code, err := w.command(ctx, ew, planArgs(opts)...); code {
	case 0:
		return ew.changed(), ew.wrap(nil)
	case 2:
		return true, ew.wrap(nil)
	default:
		return false, fmt.Errorf("tofu plan: %w", ew.wrap(err))
	}
}

// planArgs are the arguments of `tofu plan` for opts: under the state
// lock, waiting LockTimeout for it ("0s" by default), unless NoLock.
func planArgs(opts PlanOptions) []string {
	lockTimeout := opts.LockTimeout
	if lockTimeout == "" {
		lockTimeout = "0s"
	}
	lock := []string{"-lock=true", "-lock-timeout=" + lockTimeout}
	if opts.NoLock {
		lock = []string{"-lock=false"}
	}
	args := append([]string{"plan", "-no-color", "-input=false", "-detailed-exitcode", "-json"}, lock...)
	args = append(args, "-out="+opts.Out)
	for _, f := range opts.VarFiles {
		args = append(args, "-var-file="+f)
	}
	if opts.Destroy {
		args = append(args, "-destroy")
	}
	return append(args, runArgs(opts.Targets, opts.Parallelism)...)
}
