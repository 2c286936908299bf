package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// readOnlyAnnotation marks a command that writes nothing: stopped at any
// point, it loses nothing.
const readOnlyAnnotation = "strata/read-only"

// readOnlyGrace is how long a read-only command has, after the first
// signal, to return on its own (every phase honours its context) before
// strata ends it without waiting: a library deep in a load that does not
// look at the context cannot hold the process past 2 s.
const readOnlyGrace = 1500 * time.Millisecond

// readOnly marks commands as read-only.
func readOnly(cmds ...*cobra.Command) {
	for _, c := range cmds {
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[readOnlyAnnotation] = "true"
	}
}

// isReadOnly reports whether the command that args run is read-only.
func isReadOnly(root *cobra.Command, args []string) bool {
	c, _, err := root.Find(args)
	return err == nil && c != nil && c.Annotations[readOnlyAnnotation] != ""
}

// interrupts is the process's handling of SIGINT and SIGTERM:
//   - the first cancels the context, with the signal as its cause: a
//     running tofu is interrupted gracefully and given time to write its
//     state (issue 22), and every other phase returns;
//   - a second ends strata at once (the default action comes back);
//   - a read-only command still running readOnlyGrace after the first is
//     ended, with a line saying what was interrupted, once the temporary
//     files it registered (atForcedExit) are removed.
type interrupts struct {
	// got is the signal received, nil before any.
	got atomic.Value

	mu sync.Mutex
	// cleanups run, in order, before a forced exit.
	cleanups []func()
}

// interruptsKey carries the process's interrupts in a command's context.
type interruptsKey struct{}

// atForcedExit registers cleanup to run if strata ends a read-only
// command that did not return in time: a temporary checkout it made is
// removed all the same. cleanup must be safe to call twice, and from
// another goroutine than the command's. Without interrupts in ctx (a
// test calling the command's code), it does nothing.
func atForcedExit(ctx context.Context, cleanup func()) {
	in, ok := ctx.Value(interruptsKey{}).(*interrupts)
	if !ok {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.cleanups = append(in.cleanups, cleanup)
}

// forcedCleanupLimit bounds the cleanups of a forced exit: the process
// ends then, whether they are done or not.
const forcedCleanupLimit = 300 * time.Millisecond

// forcedExit runs the registered cleanups, for at most
// forcedCleanupLimit, and ends the process with sig's exit code.
func (in *interrupts) forcedExit(sig os.Signal) {
	in.mu.Lock()
	cleanups := slices.Clone(in.cleanups)
	in.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, c := range cleanups {
			c()
		}
	}()
	select {
	case <-done:
	case <-time.After(forcedCleanupLimit):
	}
	os.Exit(exitCodeOf(sig))
}

// watch returns a context cancelled by the first signal, and the function
// that stops watching. what names the command, without "strata", for the
// line a read-only command prints when it is ended; stderr receives it.
func (in *interrupts) watch(parent context.Context, what string, readOnly bool, stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.WithValue(parent, interruptsKey{}, in))
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			in.got.Store(sig)
			cancel(fmt.Errorf("%v signal received", sig))
			// The next signal gets its default action: it ends the
			// process at once.
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			if !readOnly {
				return
			}
			select {
			case <-time.After(readOnlyGrace):
				fmt.Fprintf(stderr, "strata %s: interrupted by %s: it writes nothing, so it stopped without finishing\n", what, sigName(sig))
				in.forcedExit(sig)
			case <-done:
			}
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		signal.Stop(ch)
		cancel(nil)
	}
}

// signal returns the signal received, nil when none was.
func (in *interrupts) signal() os.Signal {
	s, _ := in.got.Load().(os.Signal)
	return s
}

// exitCodeOf is the exit code of a process ended by sig, as a shell
// reports it: 128 and the signal's number (130 for SIGINT, 143 for
// SIGTERM).
func exitCodeOf(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitFailed
}

// sigName names a signal as a person writes it.
func sigName(sig os.Signal) string {
	switch sig {
	case syscall.SIGTERM:
		return "SIGTERM"
	case os.Interrupt:
		return "SIGINT"
	}
	return sig.String()
}
