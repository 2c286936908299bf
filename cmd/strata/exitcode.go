package main

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
)

// Exit codes, for CI (docs/cli.md has the table).
const (
	// exitConverged: every stack is where the repository says (or waits,
	// by design, for an upstream contract).
	exitConverged = 0
	// exitFailed: a stack failed, was skipped or was interrupted.
	exitFailed = 1
	// exitUsage: the command line is wrong.
	exitUsage = 2
	// exitHeld: nothing failed, and a plan waits for a person's approval.
	exitHeld = 3
	// exitChanges: `plan --detailed-exitcode` found changes to apply.
	exitChanges = 2
	// exitWaiting: nothing failed or is held, and a stack waits for a
	// ConfigMap or Secret that lives in the cluster, or for a source
	// strata does not fetch (--inputs, --kubeconfig): the run is partial.
	exitWaiting = 4
)

// runExitCode is the exit code of a plan or an apply: failed first, then
// held, then waiting for inputs, then (for `plan --detailed-exitcode`)
// changes pending.
func runExitCode(rep *report.Report, detailed bool) int {
	switch {
	case rep.Failed():
		return exitFailed
	case rep.Held():
		return exitHeld
	case rep.WaitingForInputs():
		return exitWaiting
	case detailed && slices.ContainsFunc(rep.Stacks, func(s report.StackReport) bool { return s.Result == history.ResultPlanned }):
		return exitChanges
	}
	return exitConverged
}

// usageErrors makes every flag or argument error of cmd and its
// subcommands a usage error (exit code 2).
func usageErrors(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: exitUsage, msg: err.Error()}
	})
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return &exitError{code: exitUsage, msg: err.Error()}
			}
			return nil
		}
	}
	for _, c := range cmd.Commands() {
		usageErrors(c)
	}
}
