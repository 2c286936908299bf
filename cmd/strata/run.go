package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/review"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

func newRunCommand(g *globals, op history.Operation) *cobra.Command {
	f := &runFlags{}
	rf := &recordsFlags{}
	bf := &baseFlags{}
	short := map[history.Operation]string{
		history.OperationPlan:  "Plan every stack of an environment, in graph order, and change nothing",
		history.OperationApply: "Plan and apply every stack of an environment, in graph order",
	}[op]
	long := map[history.Operation]string{
		history.OperationPlan: `plan runs 'tofu plan' for every stack of an environment in graph order,
at most --max-runners at once, and reports what would change and why
(install, upgrade, config, variables, upstream, drift, or rehashed when
the key of the input hashes changed). Nothing is applied
and no contract is published. A stack whose upstream contract does not exist
yet is reported as waiting.

Exit codes: 0 every stack planned or converged; 1 a stack failed, was
skipped or is blocked; 2 a usage error (or, with --detailed-exitcode,
changes to apply); 3 a plan is held for approval; 4 a stack waits for a
ConfigMap or Secret that lives in the cluster, or for a source strata does
not fetch (give it with --inputs or --kubeconfig).

With --base REF, plan reviews a pull request: it lists the stacks whose
inputs differ from those at REF as strata diff does (every environment of
the repository when no ENV is named) and plans only those, and the
consumers of their contracts, against the state their backends, the state
directory or --records hold, with policy and the contract-break checks of
every plan. Every other stack is listed unchanged and no tofu process starts
for it. -o markdown renders one review for the whole pull request, and
--comment-file writes it for CI to post.`,
		history.OperationApply: `apply runs every stack of an environment in graph order, at most
--max-runners at once: init, plan to a file, then apply exactly that plan
file when spec.approvePlan is "auto" (otherwise the plan is held). After an
apply the stack's outputs are published as its contract, which the stacks
that read it receive as a variable. When a stack fails, its dependents are
skipped and say so; its siblings go on.

A stack whose code, variables, backend and upstream contracts have not
changed since its last successful apply is not planned again until
--drift-interval has passed.

With --records s3://bucket/prefix, the history, held plans and approvals
are kept in that S3 bucket instead of the state directory, where every
machine given the same location reads and approves them.

Exit codes: 0 every stack converged (a stack waiting for an upstream
contract counts); 1 a stack failed, was skipped or is blocked; 2 a usage
error; 3 a plan is held for approval; 4 a stack waits for a ConfigMap or
Secret that lives in the cluster, or for a source strata does not fetch
(give it with --inputs or --kubeconfig), so the run is partial.`,
	}[op]
	cmd := &cobra.Command{
		Use: string(op) + " ENV" + map[history.Operation]string{
			history.OperationPlan: " | plan --base REF [ENV…]",
		}[op],
		Short: short,
		Long:  long,
		Example: fmt.Sprintf("  strata %s environments/demo/dev\n  strata %s environments/demo/dev --max-runners 4 -o json\n  strata %s environments/demo/dev -o markdown > review.md", op, op, op) + map[history.Operation]string{
			history.OperationPlan: "\n  strata plan --base origin/main -o markdown --comment-file review.md",
		}[op],
		Args: func(cmd *cobra.Command, args []string) error {
			if bf.base != "" {
				return nil
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json", "markdown"); err != nil {
				return err
			}
			if bf.commentFile != "" && g.output != "markdown" {
				return usageError("--comment-file writes the markdown review: give -o markdown with it")
			}
			if bf.commentFile != "" && bf.base == "" {
				return usageError("--comment-file writes the review of a pull request: give --base REF with it")
			}
			if err := f.check(cmd); err != nil {
				return err
			}
			if err := rf.check(); err != nil {
				return err
			}
			bin, err := tofu.Find(f.tofu)
			if err != nil {
				return err
			}
			opts := f.options(cmd, g, bin, g.logger())
			held, done, err := recordsDir(rf, "strata-held-")
			if err != nil {
				return err
			}
			defer done()
			if opts.Records, err = rf.leaderRecords(cmd.Context(), held); err != nil {
				return err
			}
			if bf.base != "" {
				return bf.plan(cmd.Context(), g, args, opts, f.detailedExitCode)
			}
			rep, err := reconcile.Reconcile(cmd.Context(), args[0], op, opts)
			if err != nil {
				return err
			}
			switch g.output {
			case "json":
				if err := writeJSON(g.stdout, rep); err != nil {
					return err
				}
			case "markdown":
				if err := review.Markdown(g.stdout, rep); err != nil {
					return err
				}
			default:
				writeReport(g, rep)
			}
			if code := runExitCode(rep, f.detailedExitCode); code != exitConverged {
				return &exitError{code: code, msg: rep.Line()}
			}
			return nil
		},
	}
	f.register(cmd)
	g.registerClusterInputs(cmd)
	rf.registerLocation(cmd)
	if op == history.OperationPlan {
		cmd.Flags().BoolVar(&f.detailedExitCode, "detailed-exitcode", false,
			"exit 2 when a stack has changes to apply (0: none, 1: failed, 3: held), as tofu plan -detailed-exitcode")
		cmd.Flags().StringVar(&bf.base, "base", "",
			"plan only the stacks whose inputs differ from those at this revision (as strata diff --base lists them) and the consumers of their contracts, in the ENVs named or, with none, in every environment of the repository")
		bf.registerComment(cmd)
	}
	return cmd
}

func writeReport(g *globals, rep *report.Report) {
	fmt.Fprintln(g.stdout)
	tw := newTable(g.stdout)
	fmt.Fprintln(tw, "STACK\tLAYER\tVERSION\tRUN\tRESULT\tCAUSE\tCHANGES\tCONTRACT")
	for _, s := range rep.Stacks {
		run := "-"
		if s.Run > 0 {
			run = fmt.Sprintf("#%d", s.Run)
		}
		changes := "-"
		if s.Summary.Add+s.Summary.Change+s.Summary.Destroy > 0 {
			changes = fmt.Sprintf("+%d ~%d -%d", s.Summary.Add, s.Summary.Change, s.Summary.Destroy)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Stack, s.Layer, dash(s.Version), run, s.Result, dash(s.Cause), changes, dash(s.Contract))
	}
	tw.Flush()
	for _, s := range rep.Stacks {
		if !s.Result.Converged() {
			fmt.Fprintf(g.stdout, "\n%s %s: %s\n", s.Stack, s.Result, strings.TrimSpace(s.Message))
		}
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(g.stdout, "\nnote: %s\n", n)
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
