package controller

import (
	"context"
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// Request is one run of one stack, as the controller hands it to an
// Executor. It is plain data that encodes to JSON, so that a Job can carry
// it to `strata runner`, which runs it through the same in-process path.
type Request struct {
	// Request is the run as package runner takes it. Its Artifact.Dir is a
	// directory of the controller's machine; a runner elsewhere fetches
	// the code again from Artifact.URL and checks Artifact.Digest.
	runner.Request
	// Namespace, Name and UID are the Terraform object's: what the run
	// writes in the cluster (its plan Secret) is owned by it.
	Namespace string    `json:"namespace"`
	Name      string    `json:"name"`
	UID       types.UID `json:"uid,omitempty"`
	// Spec is the Terraform object's spec: the runner's service account,
	// pod template and grace period are there.
	Spec v1alpha2.TerraformSpec `json:"spec"`
	// Progress, when set, is told what becomes of the run before it ends
	// (Progress); the controller writes it in the object's status at
	// once. It is not part of the run: never encoded.
	Progress func(Progress) `json:"-"`
}

// Progress is what an executor says of a run before it ends: that its
// runner cannot start, because the API server refused it, and why; or,
// after that, that it started after all (Reason and Message empty).
type Progress struct {
	// Runner is the executor's name for the run (a runner Job).
	Runner string
	// Reason and Message are the refusal's, as the refuser gave them
	// (the job controller's FailedCreate Event).
	Reason, Message string
}

// Outcome is what a run did, as plain data that encodes to JSON: a Job's
// runner reports it back the same way the in-process executor does.
type Outcome struct {
	Result runner.Result `json:"result"`
	// Duration is Result.Run.Duration, which the history does not encode.
	Duration time.Duration `json:"duration"`
	// ReviewError is Result.Review.Err: why the policy could not judge.
	ReviewError string `json:"reviewError,omitempty"`
	// Error is the run's error, "" when it succeeded. Held, Waiting and
	// Suspended are set when it is one of those, which the scheduler tells
	// apart.
	Error     string                 `json:"error,omitempty"`
	Held      *runner.HeldError      `json:"held,omitempty"`
	Waiting   *runner.WaitingError   `json:"waiting,omitempty"`
	Suspended *runner.SuspendedError `json:"suspended,omitempty"`
	// Runner names where an Adopter ran the run (a runner Job): what
	// Adopter.Release lets go once the controller recorded the outcome.
	Runner string `json:"runner,omitempty"`
	// RunnerPodRefused is set when the run failed because the API server
	// refused its runner pod until the executor gave it up: the object's
	// Ready reason is then ReasonRunnerPodRefused.
	RunnerPodRefused bool `json:"runnerPodRefused,omitempty"`
}

// NoteRunnerPodRefused is the history Note of a run that failed because
// its runner pod was refused (Outcome.RunnerPodRefused): the passes that
// wait to retry it keep the object's Ready reason RunnerPodRefused.
const NoteRunnerPodRefused = "runner pod refused"

// Executor runs one stack run and reports what it did. The error is for
// the executor itself (a Job that could not be started, a cancelled
// context before the run began); what the run did, failed included, is
// in the Outcome.
type Executor interface {
	Execute(ctx context.Context, req Request) (Outcome, error)
}

// Adopter is an Executor whose runs outlive the process that started
// them (runner Jobs). Adoptable reports whether the request's object has
// such a run to adopt: one a leader before this one left going, or left
// finished with its outcome unread. That run is the stack's run of this
// pass: Execute adopts it and reports its outcome, which skip-unchanged
// must not answer for, since the history already holds what the run
// wrote but the object's status, outputs and contract do not.
//
// A run Execute reported stays adoptable until Release: the controller
// releases it only once the object's status and Event say what it did, so
// that a leader lost at any point before leaves it to the next one, which
// adopts it and writes them in full. ReleaseOrphans lets go the finished
// runs of a namespace's objects that are gone (gone says which), whose
// outcome no pass will record.
type Adopter interface {
	Adoptable(ctx context.Context, req Request) (bool, error)
	Release(ctx context.Context, req Request, o Outcome) error
	ReleaseOrphans(ctx context.Context, namespace string, gone func(ctx context.Context, object string) (bool, error)) error
}

// NewOutcome packs what runner.Run returned.
func NewOutcome(res runner.Result, err error) Outcome {
	o := Outcome{Result: res, Duration: res.Run.Duration}
	if res.Review != nil && res.Review.Err != nil {
		o.ReviewError = res.Review.Err.Error()
	}
	if err == nil {
		return o
	}
	o.Error = err.Error()
	var held *runner.HeldError
	if errors.As(err, &held) {
		o.Held = held
	}
	var waiting *runner.WaitingError
	if errors.As(err, &waiting) {
		o.Waiting = waiting
	}
	var suspended *runner.SuspendedError
	if errors.As(err, &suspended) {
		o.Suspended = suspended
	}
	return o
}

// Unpack returns the outcome as runner.Run returned it: the typed errors
// the scheduler tells apart come back as themselves.
func (o Outcome) Unpack() (runner.Result, error) {
	res := o.Result
	res.Run.Duration = o.Duration
	if o.ReviewError != "" && res.Review != nil {
		res.Review.Err = errors.New(o.ReviewError)
	}
	switch {
	case o.Held != nil:
		return res, o.Held
	case o.Waiting != nil:
		return res, o.Waiting
	case o.Suspended != nil:
		return res, o.Suspended
	case o.Error != "":
		return res, errors.New(o.Error)
	}
	return res, nil
}

// InProcess runs each request with package runner in this process: the
// executor of `strata controller` outside a cluster, of `strata runner`
// inside a runner pod, and of the tests.
type InProcess struct {
	Runner *runner.Runner
}

// Execute runs the request.
func (e InProcess) Execute(ctx context.Context, req Request) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	return NewOutcome(e.Runner.Run(ctx, req.Request)), nil
}
