package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/internal/atomicfile"
	"github.com/strata-iac/strata/orchestrator/change"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/review"
)

// baseFlags are the flags of the commands that compare the work tree
// with a base revision: diff, and plan --base.
type baseFlags struct {
	base        string
	commentFile string
}

func (f *baseFlags) registerComment(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.commentFile, "comment-file", "",
		fmt.Sprintf("with -o markdown, write the review to this file for CI to post, cut at GitHub's limit of %d characters (the whole review goes to PATH's name with .full.md beside it)", review.CommentLimit))
}

func newDiffCommand(g *globals) *cobra.Command {
	f := &baseFlags{}
	cmd := &cobra.Command{
		Use:   "diff --base REF [ENV…]",
		Short: "List the stacks whose inputs differ between a base revision and the work tree, by environment, and why",
		Long: `diff renders the repository at the base revision REF (any commit git
names: origin/main, a tag, a hash) and at the work tree, and lists every
stack whose inputs differ, environment by environment, with its cause:

  version    its version changed (_versions.yaml, an OCIRepository's ref)
  code       its code changed at the same version
  variables  its own variables changed (named, never their values)
  spec       a field of its Terraform object changed
  new        the stack is new (or its whole environment is)
  removed    the stack left the environment
  contract   it reads a contract whose producer changes, which is named

The inputs are hashed and the cause decided as a run decides them. With no
ENV, every environment of the repository at either revision is compared:
each environments/<client>/<env> holding an init.yaml, and each
clusters/<name>. REF is laid out from git's objects in a temporary linked
work tree, which is removed after; the work tree, its index and HEAD are
left as they are. No tofu process runs and no registry is asked: an OCI
source is compared as the repository writes its ref, so a new tag that an
unchanged range picks up is for plan to find.

Exit codes: 0 when nothing changes, 2 when a stack changes (as plan
--detailed-exitcode), 1 when an environment does not load at the work tree.`,
		Example: "  strata diff --base origin/main\n  strata diff --base origin/main environments/acme/dev -o json\n  strata diff --base HEAD~1 -o markdown --comment-file review.md",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json", "markdown"); err != nil {
				return err
			}
			if f.base == "" {
				return usageError("diff needs --base REF: the revision to compare the work tree with, for example --base origin/main")
			}
			d, done, err := f.diff(cmd.Context(), args)
			if err != nil {
				return err
			}
			defer done()
			envs := make([]change.EnvPlan, 0, len(d.Environments))
			for _, e := range d.Environments {
				envs = append(envs, change.EnvPlan{Env: e})
			}
			switch g.output {
			case "json":
				if err := writeJSON(g.stdout, d); err != nil {
					return err
				}
			case "markdown":
				if err := f.writeReview(g, d, envs); err != nil {
					return err
				}
			default:
				writeDiff(g, d)
			}
			return diffExit(d, envs)
		},
	}
	cmd.Flags().StringVar(&f.base, "base", "", "the base revision to compare the work tree with (required), for example origin/main")
	f.registerComment(cmd)
	return cmd
}

// diff checks out the base and compares the environments args name
// (every environment when none). done removes the checkout.
func (f *baseFlags) diff(ctx context.Context, args []string) (*change.Report, func(), error) {
	root, dirs, err := envDirs(ctx, args)
	if err != nil {
		return nil, nil, err
	}
	co, err := change.PrepareBase(ctx, root, f.base)
	if err != nil {
		return nil, nil, err
	}
	// Ended by a signal before it returns, even while git lays the
	// checkout out, diff still removes it, at once.
	atForcedExit(ctx, co.Abandon)
	if err := co.Add(ctx); err != nil {
		return nil, nil, err
	}
	// Once: the command's error path and its caller may both call it.
	done := sync.OnceFunc(func() {
		if err := co.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "strata: "+err.Error())
		}
	})
	d, err := change.Diff(ctx, root, co, dirs)
	if err != nil {
		done()
		return nil, nil, err
	}
	return d, done, nil
}

// envDirs returns the repository root of the environments args name (the
// working directory's when there is none) and their directories relative
// to it.
func envDirs(ctx context.Context, args []string) (string, []string, error) {
	at := "."
	if len(args) > 0 {
		at = args[0]
	}
	if fi, err := os.Stat(at); err != nil || !fi.IsDir() {
		return "", nil, usageError("%s is not a directory: name an environment, for example environments/<client>/<env>", at)
	}
	root, err := change.RepoRoot(ctx, at)
	if err != nil {
		return "", nil, err
	}
	root, err = filepath.EvalSymlinks(root)
	if err != nil {
		return "", nil, err
	}
	var dirs []string
	for _, a := range args {
		abs, err := filepath.Abs(a)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			return "", nil, usageError("%s: %v: name an environment's directory, for example environments/<client>/<env>", a, err)
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", nil, usageError("%s is outside the repository %s: name environments of one repository", a, root)
		}
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	return root, dirs, nil
}

// diffExit is the exit code of diff and of plan --base before the plans:
// 1 when an environment does not load or could not be planned, 2 when a
// stack changes, else 0.
func diffExit(d *change.Report, envs []change.EnvPlan) error {
	for _, e := range envs {
		if e.Status == change.EnvInvalid {
			return &exitError{code: exitFailed, msg: fmt.Sprintf("%s does not load at the work tree: %d problem(s); strata validate %s lists them", e.Dir, len(e.Problems), e.Dir)}
		}
	}
	if d.Changed() {
		n := 0
		for _, e := range d.Environments {
			n += len(e.Stacks)
		}
		return &exitError{code: exitChanges, msg: fmt.Sprintf("%d stack(s) change against %s", n, d.Base)}
	}
	return nil
}

// writeDiff prints a diff as text: a table of the stacks that change per
// environment, then the environments that do not.
func writeDiff(g *globals, d *change.Report) {
	fmt.Fprintf(g.stdout, "base %s (%s)\n", d.Base, shortHash(d.Commit))
	var unchanged []string
	for _, e := range d.Environments {
		switch {
		case e.Status == change.EnvInvalid:
			fmt.Fprintf(g.stdout, "\n%s (%s): does not load at the work tree\n", e.Identity(), e.Dir)
			for _, p := range e.Problems {
				fmt.Fprintf(g.stdout, "  %s\n", p.String())
			}
			continue
		case len(e.Stacks) == 0:
			unchanged = append(unchanged, e.Identity())
			continue
		}
		fmt.Fprintf(g.stdout, "\n%s (%s, %s): %d changed, %d unchanged\n", e.Identity(), e.Dir, e.Status, len(e.Stacks), len(e.Unchanged))
		tw := newTable(g.stdout)
		fmt.Fprintln(tw, "  STACK\tCAUSE\tWHY")
		for _, s := range e.Stacks {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Stack, s.Cause, s.Why)
		}
		tw.Flush()
		for _, n := range e.Notes {
			fmt.Fprintf(g.stdout, "  note: %s\n", n)
		}
	}
	if len(unchanged) > 0 {
		fmt.Fprintf(g.stdout, "\nunchanged: %s\n", strings.Join(unchanged, ", "))
	}
}

// writeReview writes the pull request's review: to --comment-file when
// given, cut to fit a comment, with the whole review beside it when cut;
// else to stdout, whole.
func (f *baseFlags) writeReview(g *globals, d *change.Report, envs []change.EnvPlan) error {
	var b bytes.Buffer
	if err := review.PullRequest(&b, d, envs); err != nil {
		return err
	}
	if f.commentFile == "" {
		_, err := g.stdout.Write(b.Bytes())
		return err
	}
	full := fullReviewFile(f.commentFile)
	comment, cut := review.Cut(b.String(), review.CommentLimit, filepath.Base(full))
	if cut {
		if err := atomicfile.Write(full, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write the whole review: %w", err)
		}
	}
	if err := atomicfile.Write(f.commentFile, []byte(comment), 0o644); err != nil {
		return fmt.Errorf("write --comment-file: %w", err)
	}
	if cut {
		fmt.Fprintf(g.stderr, "the review is longer than a comment: %s holds the first %d characters, %s all of it\n", f.commentFile, len(comment), full)
	}
	return nil
}

// fullReviewFile is where the whole review goes beside a comment file:
// review.md → review.full.md.
func fullReviewFile(comment string) string {
	ext := filepath.Ext(comment)
	return strings.TrimSuffix(comment, ext) + ".full" + ext
}

func shortHash(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// plan is plan --base: the diff, then the plan of what it lists.
func (f *baseFlags) plan(ctx context.Context, g *globals, args []string, opts reconcile.Options, detailed bool) error {
	d, done, err := f.diff(ctx, args)
	if err != nil {
		return err
	}
	done() // the plans run in the work tree
	root, _, err := envDirs(ctx, args)
	if err != nil {
		return err
	}
	envs := change.Plan(ctx, root, d, func(ctx context.Context, dir string, only, removable func(string) bool) (*report.Report, error) {
		o := opts
		o.Only = only
		o.Removable = func(stack string) bool {
			return removable(stack) && (opts.Removable == nil || opts.Removable(stack))
		}
		return reconcile.Reconcile(ctx, dir, history.OperationPlan, o)
	})
	switch g.output {
	case "json":
		out := struct {
			Base         string           `json:"base"`
			Commit       string           `json:"commit"`
			Environments []change.EnvPlan `json:"environments"`
		}{d.Base, d.Commit, envs}
		if err := writeJSON(g.stdout, out); err != nil {
			return err
		}
	case "markdown":
		if err := f.writeReview(g, d, envs); err != nil {
			return err
		}
	default:
		writeDiff(g, d)
		for _, e := range envs {
			if e.Report != nil {
				fmt.Fprintf(g.stdout, "\n== plan %s (%s)\n", e.Identity(), e.Dir)
				writeReport(g, e.Report)
			}
		}
	}
	return planBaseExit(d, envs, detailed)
}

// planBaseExit is the exit code of plan --base, as plan's over every
// environment: 1 when one does not load, could not be planned or a stack
// failed, then 3 when apply would hold a plan (a policy denial, a
// contract break, a policy that failed), then with --detailed-exitcode 2
// when a stack has changes.
func planBaseExit(d *change.Report, envs []change.EnvPlan, detailed bool) error {
	code, msgs := exitConverged, []string{}
	worse := func(c int) {
		rank := map[int]int{exitConverged: 0, exitChanges: 1, exitHeld: 2, exitFailed: 3}
		if rank[c] > rank[code] {
			code = c
		}
	}
	for _, e := range envs {
		switch {
		case e.Status == change.EnvInvalid:
			worse(exitFailed)
			msgs = append(msgs, fmt.Sprintf("%s does not load at the work tree (strata validate %s)", e.Dir, e.Dir))
		case e.Error != "":
			worse(exitFailed)
			msgs = append(msgs, fmt.Sprintf("%s: %s", e.Dir, e.Error))
		case e.Report != nil:
			if c := runExitCode(e.Report, detailed); c != exitConverged {
				worse(c)
				msgs = append(msgs, fmt.Sprintf("%s: %s", e.Identity(), e.Report.Line()))
			}
			// A plan only plans; apply would hold what the policy denies
			// or what breaks a consumer, and the review fails on it.
			for _, s := range e.Report.Stacks {
				if p := s.Policy; p != nil && (!p.Allowed || p.Error != "") {
					worse(exitHeld)
					msgs = append(msgs, fmt.Sprintf("%s: apply would hold the plan of %s (%s)", e.Identity(), s.Stack, holdReason(p)))
				}
			}
		}
	}
	if code == exitConverged {
		return nil
	}
	return &exitError{code: code, msg: strings.Join(msgs, "; ")}
}

// holdReason says why apply would hold a plan.
func holdReason(p *report.PolicyReport) string {
	switch {
	case p.Error != "":
		return "the policy failed"
	case len(p.Denies) == 0:
		return "it breaks a consumer of its contract"
	}
	return fmt.Sprintf("%d policy denial(s)", len(p.Denies))
}
