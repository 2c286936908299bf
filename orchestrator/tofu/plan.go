package tofu

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-exec/tfexec"
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
}

// Plan runs `tofu plan -out` and reports whether the plan has changes.
// Progress reaches events as it happens.
func (w *Workspace) Plan(ctx context.Context, opts PlanOptions, events func(Event)) (bool, error) {
	args := []tfexec.PlanOption{tfexec.Out(opts.Out), tfexec.Destroy(opts.Destroy)}
	for _, f := range opts.VarFiles {
		args = append(args, tfexec.VarFile(f))
	}
	if opts.LockTimeout != "" {
		args = append(args, tfexec.LockTimeout(opts.LockTimeout))
	}
	ew := newEventWriter(events)
	defer w.tf.SetStdout(nil)
	changes, err := w.tf.PlanJSON(ctx, ew, args...)
	if err = ew.wrap(err); err != nil {
		return false, fmt.Errorf("tofu plan: %w", err)
	}
	return changes, nil
}
