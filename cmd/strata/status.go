package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// stackStatus is one stack's line of `strata status`.
type stackStatus struct {
	Stack  string `json:"stack"`
	Layer  string `json:"layer"`
	InRepo bool   `json:"inRepository"`
	// Suspended is the stack's spec.suspend: reconciles leave it alone.
	Suspended bool `json:"suspended,omitempty"`
	// Frozen says why Flux applies no change to the stack's Terraform
	// object (environment.Stack's Frozen): reconciles keep what it last
	// ran.
	Frozen string `json:"frozen,omitempty"`
	// PlanOnly says the stack's spec.planOnly is true: it is planned and
	// never applied.
	PlanOnly bool         `json:"planOnly,omitempty"`
	LastRun  *history.Run `json:"lastRun,omitempty"`
	Contract *contractRef `json:"contract,omitempty"`
	// Blocked says why a problem in the stack's chain holds it back, and
	// Waiting that it waits for an input that lives in the cluster: it
	// is in the repository, and does not run until that is fixed.
	Blocked string `json:"blocked,omitempty"`
	Waiting bool   `json:"waiting,omitempty"`
}

type contractRef struct {
	Key       string    `json:"key"`
	Published bool      `json:"published"`
	Version   string    `json:"version,omitempty"`
	UpdatedAt time.Time `json:"updatedAt,omitzero"`
	Public    []string  `json:"public,omitempty"`
	Private   []string  `json:"private,omitempty"`
}

func newStatusCommand(g *globals) *cobra.Command {
	var rf recordsFlags
	cmd := &cobra.Command{
		Use:   "status ENV",
		Short: "Show each stack's last run, its result and its contract",
		Long: `status shows, for every stack of an environment, its last run (number,
operation, result, cause, version, when) and the contract it publishes.
Contract values are never shown: only which keys are public and which are
private. Stacks that have history but left the repository are listed too.

With --kubeconfig or --namespace, the runs are those a cluster keeps
(strata controller and its runner pods) instead of the state directory's;
with --records s3://bucket/prefix, those an S3 bucket keeps (every machine
and runner given the same location).`,
		Example: "  strata status environments/demo/dev\n  strata status environments/demo/dev -o json\n  strata status environments/demo/dev --kubeconfig ~/.kube/config --namespace flux-system\n  strata status environments/demo/dev --records s3://acme-strata/records",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			ctx := cmd.Context()
			env, gr, err := validate.Environment(ctx, args[0])
			if err != nil {
				return err
			}
			defer func() {
				if err == nil && slices.ContainsFunc(env.Blocked, func(b environment.Blocked) bool { return !b.Waiting }) {
					err = &exitError{code: exitFailed, msg: fmt.Sprintf("%s: a stack is blocked", args[0])}
				}
			}()
			set, err := g.settings(env)
			if err != nil {
				return err
			}
			recs, err := rf.records(cmd)
			if err != nil {
				return err
			}
			st, err := envstores.OpenStoresReadOnly(ctx, env, set, recs)
			if err != nil {
				return err
			}
			defer st.Close()
			g.noteSnapshot(st)
			var rows []stackStatus
			seen := map[string]bool{}
			for _, n := range gr.Nodes() {
				seen[n.Name] = true
				row, err := statusOf(cmd, st, env, env.Stack(n.Name))
				if err != nil {
					return err
				}
				rows = append(rows, row)
			}
			for _, b := range env.Blocked {
				if b.Stack == "" {
					rows = append(rows, stackStatus{Stack: b.Name(), InRepo: true, Blocked: b.Reason})
					continue
				}
				seen[b.Stack] = true
				row, err := statusOf(cmd, st, env, &environment.Stack{Name: b.Stack})
				if err != nil {
					return err
				}
				row.InRepo, row.Blocked, row.Waiting = true, b.Reason, b.Waiting
				rows = append(rows, row)
			}
			gone, err := st.History.Stacks(ctx, env.Client, env.Name)
			if err != nil {
				return err
			}
			for _, name := range gone {
				if seen[name] {
					continue
				}
				row, err := statusOf(cmd, st, env, &environment.Stack{Name: name})
				if err != nil {
					return err
				}
				rows = append(rows, row)
			}
			if g.output == "json" {
				return writeJSON(g.stdout, map[string]any{"client": env.Client, "environment": env.Name, "stacks": rows})
			}
			tw := newTable(g.stdout)
			fmt.Fprintln(tw, "STACK\tLAYER\tLAST RUN\tRESULT\tCAUSE\tVERSION\tWHEN\tCONTRACT")
			for _, r := range rows {
				run, result, cause, version, when := "-", "never run", "-", "-", "-"
				if r.LastRun != nil {
					run = fmt.Sprintf("#%d %s", r.LastRun.Number, r.LastRun.Operation)
					result, cause, version = string(r.LastRun.Result), dash(r.LastRun.Cause), dash(r.LastRun.ToVersion)
					when = r.LastRun.StartedAt.Local().Format(time.DateTime)
				}
				if !r.InRepo {
					result += " (removed from repository)"
				}
				switch {
				case r.Blocked != "" && r.Waiting:
					result = "waiting: " + r.Blocked
				case r.Blocked != "":
					result = "blocked: " + r.Blocked
				}
				if r.Suspended {
					result += " (suspended: spec.suspend is true)"
				}
				switch {
				case r.Frozen != "" && r.LastRun != nil:
					result += " (kept: " + r.Frozen + ")"
				case r.Frozen != "":
					result += " (not created: " + r.Frozen + ")"
				}
				if r.PlanOnly {
					result += " (plan only)"
				}
				contract := "-"
				if r.Contract != nil {
					contract = r.Contract.Key
					if !r.Contract.Published {
						contract += " (not published yet)"
					}
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Stack, dash(r.Layer), run, result, cause, version, when, contract)
			}
			return tw.Flush()
		},
	}
	rf.register(cmd)
	return cmd
}

func statusOf(cmd *cobra.Command, st *envstores.Stores, env *environment.Environment, s *environment.Stack) (stackStatus, error) {
	ctx := cmd.Context()
	row := stackStatus{Stack: s.Name, InRepo: env.Stack(s.Name) != nil}
	if row.InRepo {
		row.Layer = s.Layer.String()
		row.Suspended = s.Suspend
		row.PlanOnly = s.Run.PlanOnly
	}
	last, ok, err := st.History.Last(ctx, env.Client, env.Name, s.Name)
	if err != nil {
		return row, err
	}
	if ok {
		row.LastRun = &last
	}
	if row.InRepo && s.Frozen != "" && (!s.FrozenOnceRun || ok) {
		// ssa: IfNotPresent holds once the stack has run.
		row.Frozen = s.Frozen
	}
	if s.Produces != "" {
		key := contracts.Key(st.ContractPrefix, s.Produces)
		ref := &contractRef{Key: key}
		if doc, err := st.Contracts.Get(ctx, key); err == nil {
			ref.Published = true
			ref.Version = doc.Version
			ref.UpdatedAt = doc.UpdatedAt
			ref.Public = keys(doc.Public)
			ref.Private = keys(doc.Private)
		}
		row.Contract = ref
	}
	return row, nil
}
