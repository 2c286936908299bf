package runner

import (
	"context"
	"log/slog"
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statefile"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// runState is one run of one stack: what it was asked to do, and what its
// steps found, filled in step by step.
type runState struct {
	req Request
	log *slog.Logger
	// started is when the run was asked for.
	started time.Time
	// removal is the stack that left the environment, for a removal; nil
	// for a run of a stack of the environment.
	removal *RemoveRequest

	// in are the stack's inputs; prev is its last good apply, when
	// hasPrev.
	in      inputs
	prev    history.Run
	hasPrev bool
	// head is the stack's head (headOf), read once.
	head struct {
		h    history.Head
		read bool
		err  error
	}
	// run is the run as it will be recorded; its Number is 0 until it
	// begins. The steps set its cause, summary, plan id, contract, and
	// its result when they reach one; finish sets the rest.
	run history.Run
	ws  *workspace
	// driftText is a drift plan as tofu show prints it (driftText).
	driftText string
	// lock is the state lock checkLock found held and left alone.
	lock statefile.Lock
	// outputs are the root module's outputs once the run applied
	// (outputsOf), read once for all that needs them: the contract and
	// the health checks.
	outputs struct {
		o    map[string]tofu.Output
		read bool
		err  error
	}
	// plan is the saved plan, read back; cause why it differs from prev.
	plan  planned
	cause cause
	// contract is what a plan with changes does to the stack's contract.
	contract contractCheck
	// review is the policy's word on a plan with changes.
	review *Review
	// planFile is the plan the gate let through to apply, and release,
	// when set, gives back the approval that let it through.
	planFile string
	release  func() error
	// applied is the message of a run that applied its plan.
	applied string
	// message is the run's last line; why says what caused the change.
	message, why string
	// done is set by a step that ends the run early, and well.
	done bool
	// adopted is set when the run began by adopting an apply that a
	// strata which stopped left in flight.
	adopted bool
	// interrupted are the resources whose apply strata stopped in the
	// stack's last run, when that run was interrupted.
	interrupted []string
	// lost are the resources whose create was in flight when an apply
	// died with strata and tofu (see CauseInterrupted): a plan that
	// creates one is held until a person approves it.
	lost []string
	// dead is the record of the apply adopt found, when its tofu died
	// without strata seeing it exit: the state lock that apply took, if
	// any is left, is released (see releaseDeadLock).
	dead *tofu.Record
	// keepRecord is set when the run's tofu was killed in its apply: the
	// apply record stays when the run is recorded, and the next run
	// adopts it (it releases the state lock the dead tofu held).
	keepRecord bool
}

// step is one step of a run: it reads what earlier steps found in the
// run state and adds to it, or returns why the run cannot go on.
type step func(ctx context.Context, st *runState) error

// do runs steps in order, until one fails or ends the run.
func do(ctx context.Context, st *runState, steps []step) error {
	for _, s := range steps {
		if st.done {
			return nil
		}
		if err := s(ctx, st); err != nil {
			return err
		}
	}
	return nil
}

// result is what the run did, as Run and Remove return it.
func (st *runState) result() Result {
	return Result{
		Stack:   st.run.Stack,
		Run:     st.run,
		Changes: st.plan.lines,
		Review:  st.review,
		Message: st.message,
		Why:     st.why,

		DriftText:       st.driftText,
		Downstream:      st.contract.downstream,
		ContractChanged: st.contract.changed,
		Next:            st.next(),
	}
}

// next is the contract a plan operation would publish, when wholly
// known: only a plan previews its consumers against it; an apply's
// consumers read what it published.
func (st *runState) next() *contracts.Document {
	if st.req.Operation != history.OperationPlan {
		return nil
	}
	return st.contract.next
}

// outputsOf returns the workspace's root outputs, read with tofu once per
// run.
func (st *runState) outputsOf(ctx context.Context) (map[string]tofu.Output, error) {
	if !st.outputs.read {
		st.outputs.o, st.outputs.err = st.ws.tofu.Outputs(ctx)
		st.outputs.read = true
	}
	return st.outputs.o, st.outputs.err
}
