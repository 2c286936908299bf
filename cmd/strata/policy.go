package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/policy"
)

func newPolicyCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Test the Rego policies, or judge a plan with them",
		Long: `Every plan goes through Rego policies before it is applied. A plan that a
deny (or violation) rule holds waits for a person's approval; warn rules are
reported and do not block. The input is the plan JSON exactly as
'tofu show -json PLANFILE' prints it, plus the key strata (stack, client,
environment, environmentClass, cause, fromVersion, toVersion), so rules
written for 'conftest test plan.json' work unchanged.

The default bundle, built into strata, holds:
  deny_delete  any change whose actions contain "delete": a destroy, or a
               replace in either order;
  deny_iam     any create, update or delete of an IAM resource (aws_iam_*,
               google_*_iam_*, azurerm_role_*, Kubernetes RBAC, ...) outside
               the module address prefixes in data.strata.iam.allowed_modules.

Policy directories hold .rego files (in any package; rules named deny,
deny_<name>, violation, violation_<name>, warn, warn_<name>, and exception as
in conftest) and data files (.json, .yaml). They are loaded on top of the
default bundle, or instead of it with --no-default.`,
	}
	test, eval := newPolicyTestCommand(g), newPolicyEvalCommand(g)
	readOnly(test, eval)
	cmd.AddCommand(test, eval)
	return cmd
}

func newPolicyTestCommand(g *globals) *cobra.Command {
	var noDefault bool
	cmd := &cobra.Command{
		Use:   "test [DIR...]",
		Short: "Run the Rego unit tests of the default bundle and of policy directories",
		Long: `test runs the Rego unit tests — rules named test_* (todo_* ones are
skipped) — of the default bundle and of each DIR, with the same data a plan is
judged with. Each test is printed with PASS, FAIL, ERROR or SKIP, then a
closing line with the counts. The exit code is 1 when a test fails, when
there is no test at all, or when a file does not load.`,
		Example: `  # the default bundle's own tests
  strata policy test

  # your rules and their tests, on top of the default bundle
  strata policy test policies/

  # your rules alone, as JSON
  strata policy test --no-default policies/ -o json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			if noDefault && len(args) == 0 {
				return &exitError{code: 2, msg: "policy test --no-default: name at least one DIR"}
			}
			report, err := policy.Test(cmd.Context(), args, !noDefault)
			if err != nil {
				return err
			}
			passed, failed, skipped := report.Counts()
			if g.output == "json" {
				if err := writeJSON(g.stdout, map[string]any{
					"passed": passed, "failed": failed, "skipped": skipped, "results": report.Results,
				}); err != nil {
					return err
				}
			} else {
				writePolicyTestReport(g.stdout, report)
			}
			switch {
			case len(report.Results) == 0:
				return &exitError{code: 1, msg: "no Rego test found: tests are rules named test_*"}
			case !report.Passed():
				return &exitError{code: 1, msg: fmt.Sprintf("%d Rego test(s) failed", failed)}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noDefault, "no-default", false, "leave out the default bundle: test only the DIRs")
	return cmd
}

func writePolicyTestReport(w io.Writer, report policy.TestReport) {
	for _, r := range report.Results {
		status := "PASS"
		switch {
		case r.Error != "":
			status = "ERROR"
		case r.Skip:
			status = "SKIP"
		case r.Fail:
			status = "FAIL"
		}
		fmt.Fprintf(w, "%-5s %s.%s (%s)\n", status, r.Package, r.Name, r.File)
		if r.Error != "" {
			fmt.Fprintln(w, policyIndent(r.Error, "      "))
		}
	}
	passed, failed, skipped := report.Counts()
	line := fmt.Sprintf("%d passed, %d failed", passed, failed)
	if skipped > 0 {
		line += fmt.Sprintf(", %d skipped", skipped)
	}
	fmt.Fprintln(w, line)
}

// policyEvalFlags are the flags of `strata policy eval`.
type policyEvalFlags struct {
	plan       string
	dirs       []string
	noDefault  bool
	iamModules []string
	meta       policy.Meta
}

func newPolicyEvalCommand(g *globals) *cobra.Command {
	f := &policyEvalFlags{}
	cmd := &cobra.Command{
		Use:   "eval --plan PLAN.json",
		Short: "Judge one plan with the policies, and print its plan id",
		Long: `eval judges one plan, given as the JSON that 'tofu show -json PLANFILE'
prints (--plan - reads it from standard input), with the default bundle and
the --policy directories. With --state-dir it prints the plan's id — derived
from what the plan changes, so the same change planned again has the same
id, and keyed with that state directory's hash key, so it is the id strata
gives the plan there — then every deny, warning and exception with its
rule, resource address and message.

The exit code is 1 when the plan is denied, that is held for a person's
approval, and also when a policy fails to load or to evaluate: policies fail
closed. The --stack, --environment, --cause and other flags fill the input's
strata key, for rules that read it.`,
		Example: `  # the plan as JSON
  tofu plan -out plan.tfplan && tofu show -json plan.tfplan > plan.json

  # the default bundle
  strata policy eval --plan plan.json

  # your rules too, with IAM changes allowed in module.iam and what it contains
  strata policy eval --plan plan.json --policy policies/ --iam-allowed-module module.iam

  # as a given stack and cause would be judged, as JSON
  strata policy eval --plan plan.json --stack network --environment dev --cause upgrade -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			ctx := cmd.Context()
			planJSON, err := readPolicyPlan(cmd.InOrStdin(), f.plan)
			if err != nil {
				return err
			}
			id, err := policyPlanID(g.stateDir, planJSON)
			if err != nil {
				return fmt.Errorf("%s: %w", f.plan, err)
			}
			engine, err := policy.Load(ctx, policy.Options{Dirs: f.dirs, NoDefault: f.noDefault, IAMAllowedModules: f.iamModules})
			if err != nil {
				return err
			}
			d, err := engine.Eval(ctx, planJSON, f.meta)
			if err != nil {
				return fmt.Errorf("%s: %w", f.plan, err)
			}
			if g.output == "json" {
				if err := writeJSON(g.stdout, map[string]any{
					"plan": f.plan, "planId": id, // "" without --state-dir "allowed": d.Allowed(),
					"denies": d.Denies, "warnings": d.Warnings, "exceptions": d.Exceptions,
				}); err != nil {
					return err
				}
			} else {
				writePolicyDecision(g.stdout, id, d)
			}
			if !d.Allowed() {
				return &exitError{code: 1, msg: fmt.Sprintf("plan %s is held for approval: %s", cmp.Or(id, "(no id without --state-dir)"), policyCount(len(d.Denies), "deny", "denies"))}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.plan, "plan", "", "the plan as JSON, from 'tofu show -json PLANFILE'; - reads standard input")
	fl.StringArrayVar(&f.dirs, "policy", nil, "a directory of .rego and data files, on top of the default bundle (repeatable)")
	fl.BoolVar(&f.noDefault, "no-default", false, "leave out the default bundle: judge with the --policy directories only")
	fl.StringArrayVar(&f.iamModules, "iam-allowed-module", nil, "a module address prefix where IAM changes need no approval, e.g. module.iam (repeatable)")
	fl.StringVar(&f.meta.Stack, "stack", "", "input.strata.stack")
	fl.StringVar(&f.meta.Client, "client", "", "input.strata.client")
	fl.StringVar(&f.meta.Environment, "environment", "", "input.strata.environment")
	fl.StringVar(&f.meta.EnvironmentClass, "environment-class", "", "input.strata.environmentClass: prod or non-prod")
	fl.StringVar(&f.meta.Cause, "cause", "", "input.strata.cause: install, upgrade, config, variables, upstream, drift, removed or rehashed")
	fl.StringVar(&f.meta.FromVersion, "from-version", "", "input.strata.fromVersion")
	fl.StringVar(&f.meta.ToVersion, "to-version", "", "input.strata.toVersion")
	_ = cmd.MarkFlagRequired("plan")
	return cmd
}

// readPolicyPlan reads the plan JSON from a file, or from stdin for "-".
func readPolicyPlan(stdin io.Reader, name string) ([]byte, error) {
	var (
		b   []byte
		err error
	)
	if name == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, fmt.Errorf("read plan %s: %w", name, err)
	}
	return b, nil
}

// policyPlanID is the id strata gives the plan in the environments of
// stateDir: plan ids are keyed with the state directory's hash key, so
// without one there is no id to show ("").
func policyPlanID(stateDir string, planJSON []byte) (string, error) {
	if stateDir == "" {
		_, err := policy.UnkeyedPlanID(planJSON) // the plan must still decode
		return "", err
	}
	key, err := hashkey.Load(stateDir)
	if err != nil {
		return "", err
	}
	return policy.PlanID(key, planJSON)
}

func writePolicyDecision(w io.Writer, id string, d policy.Decision) {
	if id == "" {
		fmt.Fprintln(w, "plan id: pass --state-dir to see it (plan ids are keyed with the state directory's hash key)")
	} else {
		fmt.Fprintf(w, "plan %s\n", id)
	}
	for _, group := range []struct {
		label    string
		findings []policy.Finding
	}{{"DENY", d.Denies}, {"WARN", d.Warnings}, {"EXCEPTION", d.Exceptions}} {
		for _, f := range group.findings {
			fmt.Fprintf(w, "%-9s %s %s\n", group.label, f.Rule, dash(f.Address))
			fmt.Fprintln(w, policyIndent(f.Message, "          "))
		}
	}
	verdict := "allowed"
	if !d.Allowed() {
		verdict = "held for a person's approval"
	}
	fmt.Fprintf(w, "%s: %s, %s, %s\n", verdict,
		policyCount(len(d.Denies), "deny", "denies"),
		policyCount(len(d.Warnings), "warning", "warnings"),
		policyCount(len(d.Exceptions), "exception", "exceptions"))
}

func policyCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func policyIndent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
