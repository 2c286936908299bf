package review

import (
	"fmt"
	"io"
	"strings"

	"github.com/strata-iac/strata/orchestrator/change"
	"github.com/strata-iac/strata/orchestrator/report"
)

// PullRequest writes the review of a whole pull request, one comment for
// every environment it reaches: a summary table of each stack that
// changes (environment, stack, cause, result, +/~/-, the policy's
// verdict), the environments it leaves unchanged, then per stack why it
// changes, its plan folded away, the policy's denials, what it does to
// its contract, and the consumers that re-plan. envs come from
// change.Plan; with no plan report (`strata diff`), the stacks are listed
// as not planned. Like Markdown it writes names, addresses and causes,
// never a value.
func PullRequest(w io.Writer, d *change.Report, envs []change.EnvPlan) error {
	var b strings.Builder
	changed, stacks := 0, 0
	for _, e := range envs {
		if len(e.Stacks) > 0 {
			changed++
			stacks += len(e.Stacks)
		}
	}
	fmt.Fprintf(&b, "## strata: %s in %s change against %s (%s)\n\n", count(stacks, "stack"), count(changed, "environment"), d.Base, shortCommit(d.Commit))
	if stacks > 0 {
		b.WriteString("| environment | stack | cause | result | changes | policy |\n")
		b.WriteString("|---|---|---|---|---|---|\n")
		for _, e := range envs {
			for _, s := range e.Stacks {
				r := stackReport(e, s.Stack)
				result, changes, pol := "not planned", "-", "-"
				if r != nil {
					result, changes, pol = string(r.Result), changesCell(*r), policyCell(r.Policy)
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", cell(e.Identity()), cell(s.Stack), cell(causeCell(s)), cell(result), changes, pol)
			}
		}
		b.WriteString("\n")
	}
	var unchanged, other []string
	for _, e := range envs {
		switch {
		case e.Status == change.EnvInvalid:
			other = append(other, fmt.Sprintf("**%s (%s) does not load**, so what it changes cannot be said:\n%s", e.Identity(), e.Dir, problemList(e)))
		case e.Error != "":
			other = append(other, fmt.Sprintf("**%s (%s) could not be planned:** %s\n", e.Identity(), e.Dir, oneLine(e.Error)))
		case len(e.Stacks) == 0:
			unchanged = append(unchanged, fmt.Sprintf("%s (%s)", e.Identity(), count(len(e.Unchanged), "stack")))
		}
	}
	if len(unchanged) > 0 {
		fmt.Fprintf(&b, "Unchanged: %s.\n\n", strings.Join(unchanged, ", "))
	}
	for _, o := range other {
		b.WriteString(o + "\n")
	}
	for _, e := range envs {
		for _, s := range e.Stacks {
			writeSection(&b, e, s)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSection writes one changed stack's section.
func writeSection(b *strings.Builder, e change.EnvPlan, s change.Stack) {
	r := stackReport(e, s.Stack)
	fmt.Fprintf(b, "### %s: %s", e.Identity(), s.Stack)
	if r != nil {
		fmt.Fprintf(b, " — %s", r.Result)
	}
	fmt.Fprintf(b, " (%s)\n\n", s.Cause)
	if r == nil || !strings.EqualFold(strings.TrimSuffix(r.Why, "."), strings.TrimSuffix(s.Why, ".")) {
		fmt.Fprintf(b, "Changed by this pull request: %s.\n\n", strings.TrimSuffix(s.Why, "."))
	}
	if r != nil {
		stackBody(b, *r, true)
	}
	if len(s.Consumers) > 0 {
		fmt.Fprintf(b, "**Consumers that re-plan** (they read contract %s): %s.\n\n", s.Produces, strings.Join(s.Consumers, ", "))
	}
}

// stackReport returns the plan's report of a stack, or nil.
func stackReport(e change.EnvPlan, stack string) *report.StackReport {
	if e.Report == nil {
		return nil
	}
	for i := range e.Report.Stacks {
		if e.Report.Stacks[i].Stack == stack {
			return &e.Report.Stacks[i]
		}
	}
	return nil
}

// causeCell is the cause as the summary shows it.
func causeCell(s change.Stack) string {
	switch s.Cause {
	case change.CauseVersion:
		return fmt.Sprintf("version %s → %s", orNone(s.From), orNone(s.To))
	case change.CauseContract:
		var names []string
		for _, r := range s.Reads {
			names = append(names, fmt.Sprintf("%s (from %s)", r.Contract, r.Producer))
		}
		return "contract " + strings.Join(names, ", ")
	}
	return s.Cause
}

func problemList(e change.EnvPlan) string {
	var b strings.Builder
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "- %s\n", oneLine(p.String()))
	}
	return b.String()
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
