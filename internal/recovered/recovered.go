package recovered

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// Error is a panic turned into an error.
type Error struct {
	// Value is what panic was called with.
	Value any
	// Stack is the goroutine's stack where it panicked.
	Stack []byte
}

func (e *Error) Error() string {
	return fmt.Sprintf("panicked: %v (a bug in strata: the log has its stack)", e.Value)
}

// Catch, deferred, turns a panic of the function that defers it into
// an *Error, wrapped with what ("load environment x: …") unless what is
// empty, in *err: the function returns it instead of the panic unwinding
// its caller.
func Catch(err *error, what string) {
	if p := recover(); p != nil {
		*err = New(p)
		if what != "" {
			*err = fmt.Errorf("%s: %w", what, *err)
		}
	}
}

// New is the Error of a panic recovered elsewhere, with the stack of
// the goroutine that calls it (the one that panicked, from a deferred
// function).
func New(value any) *Error {
	return &Error{Value: value, Stack: debug.Stack()}
}

// Stack returns the stack of the panic err wraps, or nil.
func Stack(err error) []byte {
	var e *Error
	if errors.As(err, &e) {
		return e.Stack
	}
	return nil
}

// Log logs the stack of the panic err wraps, at error level, with the
// error's message; nothing when err wraps none.
func Log(log *slog.Logger, err error) {
	if stack := Stack(err); stack != nil {
		log.Error("stack trace of the panic: "+err.Error(), "trace", string(stack))
	}
}
