package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/diag"
)

func newValidateCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "validate ENV",
		Short: "Load an environment and report every problem before anything runs",
		Long: `validate loads an environment (for example environments/demo/dev) the way
a reconcile does and checks all of it: YAML, references, missing variables,
production pins, layers and dependency cycles. Every problem is reported at
once, each with its file, its object and a fix. Nothing runs.`,
		Example: "  strata validate environments/demo/dev\n  strata validate environments/demo/prod -o json",
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
			if g.output == "json" {
				if problems == nil {
					problems = diag.Problems{}
				}
				if err := writeJSON(g.stdout, map[string]any{"environment": args[0], "valid": len(problems) == 0, "problems": problems}); err != nil {
					return err
				}
			} else if len(problems) > 0 {
				for _, p := range problems {
					fmt.Fprintln(g.stdout, p.String())
				}
			} else {
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
