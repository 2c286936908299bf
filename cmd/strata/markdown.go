package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/policy"
)

// writeMarkdown renders a report as a review a pull request comment can
// hold: a table of every stack, then per stack with changes its cause, its
// changes and the policy's decisions.
func writeMarkdown(w io.Writer, rep *orchestrator.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## strata %s: %s/%s (%s)\n\n", rep.Operation, rep.Client, rep.Environment, rep.Class)
	b.WriteString("| stack | layer | version | result | cause | changes | policy |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, s := range rep.Stacks {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n",
			s.Stack, s.Layer, cell(s.Version), s.Result, cell(s.Cause), changesCell(s), policyCell(s.Policy))
	}
	for _, s := range rep.Stacks {
		if len(s.Changes) == 0 && s.Policy == nil && s.Result.Converged() {
			continue
		}
		fmt.Fprintf(&b, "\n### %s: %s", s.Stack, s.Result)
		if s.Cause != "" {
			fmt.Fprintf(&b, " (%s)", s.Cause)
		}
		b.WriteString("\n\n")
		if s.Why != "" {
			fmt.Fprintf(&b, "%s.\n\n", capitalize(s.Why))
		}
		if s.PlanID != "" {
			fmt.Fprintf(&b, "Plan `%s`: %d to add, %d to change, %d to destroy.\n\n", s.PlanID, s.Summary.Add, s.Summary.Change, s.Summary.Destroy)
		}
		for _, c := range s.Changes {
			verb, addr, _ := strings.Cut(c, " ")
			fmt.Fprintf(&b, "- %s `%s`\n", verb, addr)
		}
		if len(s.Changes) > 0 {
			b.WriteString("\n")
		}
		if p := s.Policy; p != nil {
			switch {
			case p.Error != "":
				fmt.Fprintf(&b, "**Policy failed, so the plan is held:** %s\n\n", oneLine(p.Error))
			case p.Allowed:
				b.WriteString("**Policy:** allowed.\n\n")
			default:
				b.WriteString("**Policy:** held for a person's approval.\n\n")
			}
			findings(&b, "Denied", p.Denies)
			findings(&b, "Warnings", p.Warnings)
			findings(&b, "Excepted", p.Exceptions)
		}
		if !s.Result.Converged() && s.Message != "" {
			fmt.Fprintf(&b, "> %s\n", oneLine(s.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func findings(b *strings.Builder, title string, fs []policy.Finding) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(b, "%s:\n", title)
	for _, f := range fs {
		addr := f.Address
		if addr == "" {
			addr = "the plan"
		}
		fmt.Fprintf(b, "- `%s` on `%s`: %s\n", f.Rule, addr, oneLine(f.Message))
	}
	b.WriteString("\n")
}

func changesCell(s orchestrator.StackReport) string {
	if s.Summary.Add+s.Summary.Change+s.Summary.Destroy == 0 {
		return "-"
	}
	return fmt.Sprintf("+%d ~%d -%d", s.Summary.Add, s.Summary.Change, s.Summary.Destroy)
}

func policyCell(p *orchestrator.PolicyReport) string {
	switch {
	case p == nil:
		return "-"
	case p.Error != "":
		return "failed (held)"
	case !p.Allowed:
		return fmt.Sprintf("held (%d denied)", len(p.Denies))
	case len(p.Warnings) > 0:
		return fmt.Sprintf("allowed (%d warnings)", len(p.Warnings))
	default:
		return "allowed"
	}
}

func cell(s string) string {
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
