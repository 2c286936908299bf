package main

import (
	"errors"
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/change"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/validate"
)

func newValidateCommand(g *globals) *cobra.Command {
	var strict bool
	cmd := &cobra.Command{
		Use:   "validate ENV",
		Short: "Load an environment and report every problem before anything runs",
		Long: `validate loads an environment the way a reconcile does and checks all of
it: YAML, references, missing variables, production pins, layers and
dependency cycles. ENV is any directory Flux could reconcile: the seed
layout's environments/<client>/<env>, a bootstrap clusters/<name>, or the
directory of one Flux Kustomization. Every problem is reported at once, each
with its file, its object and a fix. Nothing runs.

Problems are held where Flux holds them. A problem of a Kustomization holds
back the stacks it brings in, those of the Kustomizations it renders or that
depend on it, and the stacks that depend on those: they are listed as
blocked, and the other stacks would run. A stack that needs a ConfigMap or
Secret that lives only in the cluster is listed as waiting (give it with
--inputs). A problem that holds back no stack (an unrelated app) is a
warning, listed under its own heading. The exit code is 1 for a problem of
the whole environment or a blocked stack, and 0 for warnings alone; with
--strict warnings count as problems.

The repository is read as the artifact Flux builds from: what
source-controller leaves out (.github/, .sops.yaml, … a .sourceignore file,
the GitRepository's spec.ignore) and files git ignores and that are not
committed are not read. Files not committed yet are read as they are, and
listed under "not committed": Flux does not see them until they are pushed.

kustomize's warnings of deprecated fields (bases, commonLabels, …) are
logged on stderr, one WARN line each naming its kustomization file; they
are not problems, even with --strict.

With -v it also says how the repository root was found and counts the
objects of kinds strata does not read (HelmRelease, Namespace, …).`,
		Example: "  strata validate environments/demo/dev\n  strata validate clusters/dev -v\n  strata validate clusters/dev --inputs ci/inputs/ --strict\n  strata validate environments/demo/prod -o json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			env, gr, err := validate.Environment(cmd.Context(), args[0])
			var problems diag.Problems
			if err != nil && !errors.As(err, &problems) {
				return err
			}
			var blocked, waiting []environment.Blocked
			var warnings diag.Problems
			if env != nil {
				for _, b := range env.Blocked {
					if b.Waiting {
						waiting = append(waiting, b)
					} else {
						blocked = append(blocked, b)
					}
				}
				warnings = env.Warnings
			}
			if strict {
				problems = append(problems, warnings...)
				warnings = nil
			}
			if g.verbose && g.output != "json" && env != nil {
				writeNotes(g, env)
			}
			if env != nil {
				// kustomize's deprecation warnings are the log's, on
				// stderr, never the report's.
				validate.LogDeprecations(runLogTo(g, g.stderr), env)
			}
			failed := len(problems) > 0 || len(blocked) > 0
			// What the person validates before committing is read; Flux
			// reads the commit.
			uncommitted, uerr := change.UncommittedIn(cmd.Context(), args[0])
			if uerr != nil {
				fmt.Fprintln(g.stderr, "strata: "+uerr.Error())
			}
			if g.output == "json" {
				out := map[string]any{"environment": args[0], "valid": !failed, "problems": nonNilProblems(problems)}
				if uncommitted != nil {
					out["uncommitted"] = uncommitted
				}
				if env != nil && len(env.Notes) > 0 {
					out["notes"] = env.Notes
				}
				if env != nil && len(env.Skipped) > 0 {
					out["skipped"] = env.Skipped
				}
				if len(blocked) > 0 {
					out["blocked"] = blocked
				}
				if len(waiting) > 0 {
					out["waiting"] = waiting
				}
				if len(warnings) > 0 {
					out["warnings"] = warnings
				}
				if err := writeJSON(g.stdout, out); err != nil {
					return err
				}
			} else {
				writeValidation(g, args[0], env, gr, problems, blocked, waiting, warnings)
				writeUncommitted(g, uncommitted)
			}
			switch {
			case len(problems) > 0:
				return &exitError{code: 1, msg: fmt.Sprintf("%s: %d problem(s) found", args[0], len(problems))}
			case len(blocked) > 0:
				return &exitError{code: 1, msg: fmt.Sprintf("%s: %d stack(s) blocked", args[0], len(blocked))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "count warnings (problems that hold back no stack) as problems: exit 1 for any")
	g.registerClusterInputs(cmd)
	return cmd
}

// writeValidation prints validate's text report: the problems of the
// whole environment, else the summary line; then the stacks blocked and
// waiting, each with its problems, and the warnings.
func writeValidation(g *globals, dir string, env *environment.Environment, gr *graph.Graph, problems diag.Problems, blocked, waiting []environment.Blocked, warnings diag.Problems) {
	w := g.stdout
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(w, p.String())
		}
	} else {
		layers := map[string]bool{}
		for _, s := range env.Stacks {
			layers[s.Layer.String()] = true
		}
		state := "is valid"
		if len(blocked) > 0 {
			state = fmt.Sprintf("has %d blocked stack(s)", len(blocked))
		}
		held := ""
		if n := len(env.Waiting()); n > 0 {
			held = fmt.Sprintf(", and %d stack(s) waiting for inputs", n)
		}
		fmt.Fprintf(w, "%s: %s/%s (%s) %s: %d stacks in %d layers, %d dependencies%s\n",
			dir, env.Client, env.Name, env.Class, state, len(env.Stacks), len(layers), countEdges(gr.Nodes()), held)
	}
	section := func(title string, bs []environment.Blocked) {
		if len(bs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, b := range bs {
			fmt.Fprintf(w, "  %s\n", b)
			for _, p := range b.Problems {
				fmt.Fprintf(w, "    %s\n", p)
			}
		}
	}
	section("blocked (a problem in their chain holds them back; the other stacks run)", blocked)
	section("waiting for inputs that live in the cluster (--inputs, --kubeconfig)", waiting)
	if len(warnings) > 0 {
		fmt.Fprintf(w, "\nwarnings (they hold back no stack; --strict makes them problems):\n")
		for _, p := range warnings {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
}

// uncommittedShown is how many of the files not committed validate lists.
const uncommittedShown = 20

// writeUncommitted says which files of the work tree validate read that
// the commit Flux reads does not have, as they are.
func writeUncommitted(g *globals, u *change.Uncommitted) {
	if u == nil {
		return
	}
	why := "the repository has no commit yet; Flux sees none of it until it is committed and pushed"
	if u.Commit != "" {
		why = fmt.Sprintf("validated as they are in the work tree; Flux reads commit %s, without them, until they are committed and pushed", shortHash(u.Commit))
	}
	fmt.Fprintf(g.stdout, "\nnot committed (%s):\n", why)
	for i, f := range u.Files {
		if i == uncommittedShown {
			fmt.Fprintf(g.stdout, "  … and %d more (git status lists them)\n", len(u.Files)-uncommittedShown)
			break
		}
		fmt.Fprintf(g.stdout, "  %s\n", f)
	}
}

// nonNilProblems is ps, or an empty list, for JSON.
func nonNilProblems(ps diag.Problems) diag.Problems {
	if ps == nil {
		return diag.Problems{}
	}
	return ps
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
