package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/strata-iac/strata/internal/recovered"
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
	cmd := newRootCommand(os.Stdout, os.Stderr)
	var in interrupts
	ctx, stop := in.watch(context.Background(), strings.Join(os.Args[1:], " "), isReadOnly(cmd, os.Args[1:]), os.Stderr)
	defer stop()
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
	if stack := recovered.Stack(err); stack != nil {
		fmt.Fprintf(os.Stderr, "strata: stack trace of the panic:\n%s", stack)
	}
	if sig := in.signal(); sig != nil {
		// Stopped by the signal: the exit code says so, as a shell's.
		return exitCodeOf(sig)
	}
	return 1
}

// exitError ends the command with a code, after output was already written.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
