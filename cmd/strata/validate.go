package main

import (
	"errors"
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

func newValidateCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "validate ENV",
		Short: "Load an environment and report every problem before anything runs",
		Long: `validate loads an environment the way a reconcile does and checks all of
it: YAML, references, missing variables, production pins, layers and
dependency cycles. ENV is any directory Flux could reconcile: the seed
layout's environments/<client>/<env>, a bootstrap clusters/<name>, or the
directory of one Flux Kustomization. Every problem is reported at once, each
with its file, its object and a fix. Nothing runs.

With -v it also says how the repository root was found and counts the
objects of kinds strata does not read (HelmRelease, Namespace, …).`,
		Example: "  strata validate environments/demo/dev\n  strata validate clusters/dev -v\n  strata validate environments/demo/prod -o json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			env, gr, err := orchestrator.Validate(cmd.Context(), args[0])
			var problems diag.Problems
			if err != nil && !errors.As(err, &problems) {
				return err
			}
			if g.verbose && g.output != "json" && env != nil {
				writeNotes(g, env)
			}
			switch {
			case g.output == "json":
				if problems == nil {
					problems = diag.Problems{}
				}
				out := map[string]any{"environment": args[0], "valid": len(problems) == 0, "problems": problems}
				if env != nil && len(env.Notes) > 0 {
					out["notes"] = env.Notes
				}
				if env != nil && len(env.Skipped) > 0 {
					out["skipped"] = env.Skipped
				}
				if err := writeJSON(g.stdout, out); err != nil {
					return err
				}
			case len(problems) > 0:
				for _, p := range problems {
					fmt.Fprintln(g.stdout, p.String())
				}
			default:
				layers := map[string]bool{}
				for _, s := range env.Stacks {
					layers[s.Layer.String()] = true
				}
				fmt.Fprintf(g.stdout, "%s: %s/%s (%s) is valid: %d stacks in %d layers, %d dependencies\n",
					args[0], env.Client, env.Name, env.Class, len(env.Stacks), len(layers), countEdges(gr.Nodes()))
			}
			if len(problems) > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("%s: %d problem(s) found", args[0], len(problems))}
			}
			return nil
		},
	}
}

// writeNotes prints what loading had to say, and the objects skipped by
// kind, one line each.
func writeNotes(g *globals, env *environment.Environment) {
	for _, n := range env.Notes {
		fmt.Fprintf(g.stdout, "note: %s\n", n)
	}
	kinds := make([]string, 0, len(env.Skipped))
	for k := range env.Skipped {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(g.stdout, "skipped: %d %s (a kind strata does not read)\n", env.Skipped[k], k)
	}
}
