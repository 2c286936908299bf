package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/validate"
	"github.com/strata-iac/strata/policy"
)

// contractDiff is what `strata contracts diff` reports.
type contractDiff struct {
	Stack    string `json:"stack"`
	Contract string `json:"contract"`
	// Result is the stack's plan result; PlanID its id when it has changes.
	Result history.Result `json:"result"`
	PlanID string         `json:"planId,omitempty"`
	// Change is what the plan does to the contract's keys, and the
	// consumers it breaks; Values are the keys whose value changes.
	Change *policy.Contract `json:"change,omitempty"`
	Values []string         `json:"values"`
	// Downstream are the stacks that re-plan once the plan is applied.
	Downstream []report.Upstream `json:"downstream"`
	Message    string            `json:"message,omitempty"`
}

func newContractsDiffCommand(g *globals) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "diff ENV STACK",
		Short: "Compare a stack's published contract with the one its current plan would publish",
		Long: `diff plans the environment ENV, as strata plan does (nothing is applied
or published), and compares the contract the stack STACK publishes now with
the one its plan would publish: the keys removed, changed to another type,
moved between public and private, and added; the keys whose value changes
(or is only known after apply); the consumers a change breaks, with the
file:line where they read the key; and the stacks that will re-plan.

A plan that breaks a consumer is one strata apply holds with cause
contract-break, until a person approves it. Values are never shown.`,
		Example: `  strata contracts diff environments/demo/dev network
  strata contracts diff environments/demo/dev network -o json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			env, _, err := validate.Environment(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			s := env.Stack(args[1])
			if s == nil {
				return &exitError{code: 2, msg: fmt.Sprintf("contracts diff: %s/%s has no stack %q: see strata graph %s", env.Client, env.Name, args[1], args[0])}
			}
			if s.Produces == "" {
				return fmt.Errorf("contracts diff: stack %s (%s) publishes no contract: set spec.writeOutputsToSecret.name", s.Name, s.File)
			}
			bin, err := tofu.Find(f.tofu)
			if err != nil {
				return err
			}
			rep, err := reconcile.Reconcile(cmd.Context(), args[0], history.OperationPlan, reconcile.Options{
				Tofu: bin, StateDir: g.stateDir, MaxRunners: f.maxRunners, Timeout: f.timeout,
				Logger: runLogTo(g, g.stderr), PolicyDirs: f.policyDirs, NoDefaultPolicy: f.noDefaultPolicy,
				InsecureRegistries: f.insecure, DockerConfig: f.dockerConfig,
				ProviderMirror: f.mirror, ProviderMirrorCA: f.mirrorCA,
			})
			if err != nil {
				return err
			}
			d := contractDiff{Stack: s.Name, Contract: s.Produces, Values: []string{}, Downstream: []report.Upstream{}}
			for _, sr := range rep.Stacks {
				if sr.Stack != s.Name {
					continue
				}
				d.Result, d.PlanID, d.Change, d.Message = sr.Result, sr.PlanID, sr.ContractChange, sr.Message
				d.Values = append(d.Values, sr.ContractValues...)
				d.Downstream = append(d.Downstream, sr.Downstream...)
			}
			if g.output == "json" {
				return writeJSON(g.stdout, d)
			}
			return writeContractDiff(g, d)
		},
	}
	f.register(cmd)
	return cmd
}

// runLogTo is the run log, written to w: the plan's log lines are not
// what diff reports.
func runLogTo(g *globals, w io.Writer) *slog.Logger {
	level := slog.LevelInfo
	if g.verbose {
		level = slog.LevelDebug
	}
	return runlog.New(w, level)
}

func writeContractDiff(g *globals, d contractDiff) error {
	w := g.stdout
	switch {
	case d.Result.Failed() || d.Result == history.ResultWaiting:
		return fmt.Errorf("contracts diff: stack %s did not plan (%s): %s", d.Stack, d.Result, d.Message)
	case d.Change == nil:
		fmt.Fprintf(w, "contract %s of stack %s: the plan (%s) publishes it unchanged\n", d.Contract, d.Stack, d.Result)
		return nil
	}
	fmt.Fprintf(w, "contract %s of stack %s: published now, against plan %s\n", d.Contract, d.Stack, d.PlanID)
	tw := newTable(w)
	fmt.Fprintln(tw, "CHANGE\tKEY\tTYPE")
	for _, k := range d.Change.Removed {
		fmt.Fprintf(tw, "removed\t%s.%s\t%s\n", k.Section, k.Name, k.Type)
	}
	for _, k := range d.Change.Changed {
		fmt.Fprintf(tw, "type\t%s.%s\t%s -> %s\n", k.Section, k.Name, k.Type, k.To)
	}
	for _, k := range d.Change.Moved {
		fmt.Fprintf(tw, "moved\t%s.%s -> %s\t%s\n", k.Section, k.Name, k.To, k.Type)
	}
	for _, k := range d.Change.Added {
		fmt.Fprintf(tw, "added\t%s.%s\t%s\n", k.Section, k.Name, k.Type)
	}
	for _, v := range d.Values {
		fmt.Fprintf(tw, "value\t%s\t-\n", v)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(d.Change.Consumers) > 0 {
		fmt.Fprintf(w, "\nbreaks (strata apply holds this plan with cause contract-break):\n")
		for _, c := range d.Change.Consumers {
			fmt.Fprintf(w, "  %s reads %s.%s at %s:%d: %s\n", c.Stack, c.Section, c.Key, c.File, c.Line, c.Why)
		}
	}
	if len(d.Downstream) > 0 {
		fmt.Fprintf(w, "\nre-plans once applied:\n")
		for _, u := range d.Downstream {
			fmt.Fprintf(w, "  %s after %s applies (upstream: %s)\n", u.Stack, u.Producer, strings.Join(u.Keys, ", "))
		}
	}
	return nil
}
