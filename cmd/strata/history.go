package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
)

func newHistoryCommand(g *globals) *cobra.Command {
	var (
		limit  int
		all    bool
		repair bool
		rf     recordsFlags
	)
	cmd := &cobra.Command{
		Use:   "history ENV [STACK]",
		Short: "List the runs of an environment's stacks, newest first",
		Long: `history lists the recorded runs of every stack of an environment, or of
one stack: number, operation, cause, versions, changes, plan id, result and
duration, newest first: the last --limit of each stack, or with --all every
run the history keeps, including those of stacks that have since left the
repository, and runs that a killed process left unfinished (shown as
interrupted).

The history keeps a run while it is one of its stack's last 100 runs, or
younger than 14 days (the init keys keepRuns and keepDays, or --keep-runs
and --keep-days of plan, apply and reconcile; keepDays 0 keeps by count
alone). A stack's first run and its last good one are always kept; the
others go, with their log files, as newer runs begin. The text output
ends with what the history keeps.

A damaged history file (bbolt cannot read it) is reported as such.
--repair moves it aside, to history.db.corrupt-<time> in the state
directory, so that the next run starts a new history; state, contracts and
held plans are not touched. apply and reconcile do the same by themselves,
and say so. A history that is not damaged, or that a running reconcile
holds, is left alone.

With --kubeconfig or --namespace, the runs are those a cluster keeps
(strata controller and its runner pods) instead of the state directory's;
with --records s3://bucket/prefix, those an S3 bucket keeps. --repair is for
the state directory's file only.`,
		Example: "  strata history environments/demo/dev\n  strata history environments/demo/dev network --limit 5 -o json\n  strata history environments/demo/dev network --all",
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			if limit < 0 {
				return usageError("--limit is %d: it must be 0 (every run) or more", limit)
			}
			if all {
				if cmd.Flags().Changed("limit") && limit != 0 {
					return usageError("--all lists every run kept and --limit %d at most %d of each stack: give one of them", limit, limit)
				}
				limit = 0
			}
			ctx := cmd.Context()
			env, err := flux.Load(ctx, args[0])
			if env == nil {
				return err
			}
			recs, err := rf.records(cmd)
			if err != nil {
				return err
			}
			if repair {
				if recs != nil {
					return usageError("--repair moves a damaged history file of the state directory aside: the records of a cluster or a bucket have no file; leave out --kubeconfig, --namespace and --records")
				}
				return repairHistory(cmd, g, env)
			}
			// A broken environment still has a history worth reading.
			set, err := g.settings(env)
			if err != nil {
				return err
			}
			st, err := envstores.OpenStoresReadOnly(ctx, env, set, recs)
			if err != nil {
				return err
			}
			defer st.Close()
			g.noteSnapshot(st)
			stacks := args[1:]
			if len(stacks) == 0 {
				if stacks, err = st.History.Stacks(ctx, env.Client, env.Name); err != nil {
					return err
				}
			}
			var runs []history.Run
			for _, s := range stacks {
				rs, err := st.History.List(ctx, env.Client, env.Name, s, limit)
				if err != nil {
					return err
				}
				if len(rs) == 0 && len(args) == 2 {
					return fmt.Errorf("history: stack %s of %s/%s has no runs", s, env.Client, env.Name)
				}
				runs = append(runs, rs...)
			}
			if g.output == "json" {
				if runs == nil {
					runs = []history.Run{}
				}
				return writeJSON(g.stdout, runs)
			}
			tw := newTable(g.stdout)
			fmt.Fprintln(tw, "STACK\tRUN\tOPERATION\tWHEN\tCAUSE\tVERSION\tCHANGES\tPLAN\tRESULT\tDURATION")
			for _, r := range runs {
				version := dash(r.ToVersion)
				if r.FromVersion != "" && r.FromVersion != r.ToVersion {
					version = fmt.Sprintf("%s → %s", r.FromVersion, dash(r.ToVersion))
				}
				changes := "-"
				if r.Summary.Add+r.Summary.Change+r.Summary.Destroy > 0 {
					changes = fmt.Sprintf("+%d ~%d -%d", r.Summary.Add, r.Summary.Change, r.Summary.Destroy)
				}
				fmt.Fprintf(tw, "%s\t#%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Stack, r.Number, r.Operation,
					r.StartedAt.Local().Format(time.DateTime), dash(r.Cause), version, changes, dash(r.PlanID), r.Result, r.Duration.Round(time.Millisecond))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			_, err = fmt.Fprintf(g.stdout, "\nThe history keeps %s (keepRuns %d, keepDays %d).\n", envstores.Retention(set), set.KeepRuns, set.KeepDays)
			return err
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 20, "most runs per stack; 0 lists them all")
	cmd.Flags().BoolVar(&all, "all", false, "list every run the history keeps (--limit 0)")
	cmd.Flags().BoolVar(&repair, "repair", false, "move a damaged history file aside so that a new one starts")
	rf.register(cmd)
	return cmd
}

// repairHistory moves the environment's history file aside when it is
// damaged.
func repairHistory(cmd *cobra.Command, g *globals, env *environment.Environment) error {
	set, err := g.settings(env)
	if err != nil {
		return err
	}
	path := envstores.HistoryFile(set)
	h, err := history.Open(cmd.Context(), path, history.WithTimeout(time.Second))
	if err == nil {
		// It opened and every run in it was read: nothing is damaged.
		if err := h.Close(); err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "history %s is not damaged: nothing to repair\n", path)
		return nil
	}
	if !errors.Is(err, history.ErrCorrupt) {
		return fmt.Errorf("history --repair: %w", err)
	}
	moved, err := history.Repair(path, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(g.stdout, "history %s was damaged: moved it to %s; the next run starts a new history (state, contracts and held plans are untouched)\n", path, moved)
	return nil
}
