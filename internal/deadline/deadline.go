package deadline

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Error is the cause of a context whose deadline passed. It matches
// context.DeadlineExceeded with errors.Is.
type Error struct {
	// What names what was asked: a URL, a bucket, an API.
	What string
	// After is the deadline.
	After time.Duration
}

func (e *Error) Error() string { return fmt.Sprintf("%s: no answer within %s", e.What, e.After) }

// Unwrap makes an Error a context.DeadlineExceeded.
func (e *Error) Unwrap() error { return context.DeadlineExceeded }

// Within returns a context that ends after d, its cause an *Error naming
// what.
func Within(ctx context.Context, what string, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d, &Error{What: what, After: d})
}

// Run calls fn with a context that ends after d, and returns what fn
// returns, or, as soon as that context ends, its cause: the *Error of the
// deadline, or the cause of ctx (a signal). It does not wait for fn to
// return, so a client that does not look at its context cannot hold the
// caller; such a call ends on its own, or with the process.
func Run[T any](ctx context.Context, what string, d time.Duration, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := Within(ctx, what, d)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn(ctx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		if r.err != nil && ctx.Err() != nil {
			// Failed because the context ended: its cause says why (the
			// deadline's *Error, a signal), as when the context ends
			// first; fn's own error when it ended without one.
			if cause := context.Cause(ctx); cause != ctx.Err() {
				return r.v, cause
			}
			return r.v, r.err
		}
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, context.Cause(ctx)
	}
}

// Cause returns the *Error of ctx's deadline when that is what ended
// ctx, else err.
func Cause(ctx context.Context, err error) error {
	var d *Error
	if errors.As(context.Cause(ctx), &d) {
		return d
	}
	return err
}
