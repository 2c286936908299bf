package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run())
}

// run executes the command line and returns the exit code: 0 on success,
// 1 when a stack failed or validation found problems, 2 on a usage error.
func run() int {
	setGC()
	stopProfile, err := startProfile()
	if err != nil {
		fmt.Fprintln(os.Stderr, "strata: "+err.Error())
		return 1
	}
	defer func() {
		if err := stopProfile(); err != nil {
			fmt.Fprintln(os.Stderr, "strata: "+err.Error())
		}
	}()
	defer func() {
		if err := writeRusage(); err != nil {
			fmt.Fprintln(os.Stderr, "strata: "+err.Error())
		}
	}()
	// SIGINT and SIGTERM cancel the context: a running tofu is interrupted
	// gracefully (SIGINT) and given time to write its state.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A second signal ends strata at once: once the first cancelled ctx,
	// the signals get their default action back. A tofu apply in flight
	// goes on, as when strata is killed.
	go func() {
		<-ctx.Done()
		stop()
	}()
	cmd := newRootCommand(os.Stdout, os.Stderr)
	err = cmd.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			fmt.Fprintln(os.Stderr, "strata: "+ex.msg)
		}
		return ex.code
	}
	fmt.Fprintln(os.Stderr, "strata: "+err.Error())
	return 1
}

// exitError ends the command with a code, after output was already written.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
