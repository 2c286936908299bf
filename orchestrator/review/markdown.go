package review

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/policy"
)

// Markdown writes a report as a review a pull request comment can hold: a
// table of every stack, then per stack with changes its cause, its changes
// and the policy's decisions.
func Markdown(w io.Writer, rep *report.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## strata %s: %s/%s (%s)\n\n", rep.Operation, rep.Client, rep.Environment, rep.Class)
	b.WriteString("| stack | layer | version | result | cause | changes | policy |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, s := range rep.Stacks {
		result := s.Result
		if pendingUpstream(s) {
			result += ", will re-plan"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n",
			s.Stack, s.Layer, cell(s.Version), result, cell(s.Cause), changesCell(s), policyCell(s.Policy))
	}
	for _, s := range rep.Stacks {
		if len(s.Changes) == 0 && s.Policy == nil && s.Result.Converged() && len(s.Upstream) == 0 && len(s.Downstream) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s: %s", s.Stack, s.Result)
		if s.Cause != "" {
			fmt.Fprintf(&b, " (%s)", s.Cause)
		}
		b.WriteString("\n\n")
		stackBody(&b, s, false)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// stackBody writes what a stack's plan says: why, the plan and its
// changes (folded away in a <details> when collapsible), the policy's
// decisions, what it does to its contract, and who re-plans. Names and
// addresses only: no value of a plan is ever written.
func stackBody(b *strings.Builder, s report.StackReport, collapsible bool) {
	if s.Why != "" {
		fmt.Fprintf(b, "%s.\n\n", capitalize(s.Why))
	}
	if s.PlanID != "" {
		fmt.Fprintf(b, "Plan `%s`: %d to add, %d to change, %d to destroy.\n\n", s.PlanID, s.Summary.Add, s.Summary.Change, s.Summary.Destroy)
	}
	if collapsible && len(s.Changes) > 0 {
		b.WriteString("<details><summary>The plan's changes</summary>\n\n")
	}
	for _, c := range s.Changes {
		verb, addr, _ := strings.Cut(c, " ")
		fmt.Fprintf(b, "- %s `%s`\n", verb, addr)
	}
	if len(s.Changes) > 0 {
		b.WriteString("\n")
	}
	if collapsible && len(s.Changes) > 0 {
		b.WriteString("</details>\n\n")
	}
	if p := s.Policy; p != nil {
		switch {
		case p.Error != "":
			fmt.Fprintf(b, "**Policy failed, so the plan is held:** %s\n\n", oneLine(p.Error))
		case p.Allowed:
			b.WriteString("**Policy:** allowed.\n\n")
		case len(p.Denies) == 0:
			b.WriteString("**Policy:** allowed; held for a person's approval because it breaks a consumer of its contract.\n\n")
		default:
			b.WriteString("**Policy:** held for a person's approval.\n\n")
		}
		findings(b, "Denied", p.Denies)
		findings(b, "Warnings", p.Warnings)
		findings(b, "Excepted", p.Exceptions)
	}
	contractChange(b, s)
	for _, u := range s.Upstream {
		if u.Known {
			fmt.Fprintf(b, "**Previewed** against the contract that %s's plan would publish (upstream: %s): this is the plan it will make once %s applies.\n\n", u.Producer, upstreamKeys(u), u.Producer)
			continue
		}
		fmt.Fprintf(b, "**Will re-plan after %s applies** (upstream: %s): this plan ran against the contracts published now.\n\n", u.Producer, upstreamKeys(u))
	}
	if len(s.Downstream) > 0 {
		b.WriteString("**Downstream:** once this plan is applied, these stacks re-plan with cause `upstream`:\n")
		for _, d := range s.Downstream {
			fmt.Fprintf(b, "- %s: will re-plan (upstream: %s) after %s applies\n", d.Stack, upstreamKeys(d), d.Producer)
		}
		b.WriteString("\n")
	}
	if !s.Result.Converged() && s.Message != "" {
		fmt.Fprintf(b, "> %s\n", oneLine(s.Message))
	}
}

// contractChange writes what a plan does to the stack's contract, and the
// consumers it breaks.
func contractChange(b *strings.Builder, s report.StackReport) {
	c := s.ContractChange
	if c == nil || len(c.Removed)+len(c.Changed)+len(c.Moved)+len(c.Added) == 0 {
		return
	}
	fmt.Fprintf(b, "**Contract %s:**", c.Name)
	for _, k := range c.Removed {
		fmt.Fprintf(b, " `%s.%s` removed;", k.Section, k.Name)
	}
	for _, k := range c.Changed {
		fmt.Fprintf(b, " `%s.%s` changes from %s to %s;", k.Section, k.Name, k.Type, k.To)
	}
	for _, k := range c.Moved {
		fmt.Fprintf(b, " `%s.%s` moves to %s;", k.Section, k.Name, k.To)
	}
	for _, k := range c.Added {
		fmt.Fprintf(b, " `%s.%s` added;", k.Section, k.Name)
	}
	b.WriteString("\n\n")
	if len(c.Consumers) > 0 {
		b.WriteString("Held with cause `contract-break`: it breaks\n")
		for _, cc := range c.Consumers {
			fmt.Fprintf(b, "- %s, which reads `%s.%s` at `%s:%d` (%s)\n", cc.Stack, cc.Section, cc.Key, cc.File, cc.Line, cc.Why)
		}
		b.WriteString("\n")
	}
}

// pendingUpstream reports whether the stack's plan is not its last word:
// an upstream it reads changes, and its plan could not be previewed.
func pendingUpstream(s report.StackReport) bool {
	return slices.ContainsFunc(s.Upstream, func(u report.Upstream) bool { return !u.Known })
}

// upstreamKeys names the keys a stack re-plans for: "vpc_id" for a
// public key, "private.ca_data" for a private one, "every key" for an
// object read whole.
func upstreamKeys(u report.Upstream) string {
	names := make([]string, 0, len(u.Keys))
	for _, k := range u.Keys {
		switch {
		case k == "*.*":
			names = append(names, "every key of "+u.Contract)
		case strings.HasSuffix(k, ".*"):
			names = append(names, "every "+strings.TrimSuffix(k, ".*")+" key of "+u.Contract)
		default:
			names = append(names, strings.TrimPrefix(strings.TrimPrefix(k, "*."), "public."))
		}
	}
	return strings.Join(names, ", ")
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

func changesCell(s report.StackReport) string {
	if s.Summary.Add+s.Summary.Change+s.Summary.Destroy == 0 {
		return "-"
	}
	return fmt.Sprintf("+%d ~%d -%d", s.Summary.Add, s.Summary.Change, s.Summary.Destroy)
}

func policyCell(p *report.PolicyReport) string {
	switch {
	case p == nil:
		return "-"
	case p.Error != "":
		return "failed (held)"
	case !p.Allowed && len(p.Denies) == 0:
		return "held (contract-break)"
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
