package policy

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestResult is the outcome of one Rego unit test (a test_* rule).
type TestResult struct {
	// Package is the test's package without "data.", e.g. "main".
	Package string `json:"package"`
	// Name is the test rule's name, e.g. "test_deny_delete_destroy".
	Name string `json:"name"`
	// File is where the test is defined, as file:line.
	File string `json:"file"`
	// Pass says the test ran and was true.
	Pass bool `json:"pass"`
	// Fail says the test was false or undefined, or stopped on an error.
	Fail bool `json:"fail"`
	// Skip says the test is a todo_ test and did not run.
	Skip bool `json:"skip,omitempty"`
	// Error is why the test could not run to its end, if it could not.
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration"`
}

// TestReport is the outcome of every Rego unit test, sorted by package,
// file and line.
type TestReport struct {
	Results []TestResult `json:"results"`
}

// Passed says whether no test failed or stopped on an error.
func (r TestReport) Passed() bool {
	return !slices.ContainsFunc(r.Results, func(t TestResult) bool { return t.Fail || t.Error != "" })
}

// Counts are the numbers of tests that passed, failed (or errored) and were
// skipped.
func (r TestReport) Counts() (passed, failed, skipped int) {
	for _, t := range r.Results {
		switch {
		case t.Pass:
			passed++
		case t.Skip:
			skipped++
		default:
			failed++
		}
	}
	return passed, failed, skipped
}

// testTimeout bounds each Rego unit test.
const testTimeout = 10 * time.Second

// Test runs the Rego unit tests (test_* rules; todo_* ones are skipped) of
// the default bundle, when includeDefault, and of dirs, with the same rules
// and data that Load would use. Built-in errors fail a test, as they fail an
// evaluation. A file that does not load or compile is an error.
func Test(ctx context.Context, dirs []string, includeDefault bool) (TestReport, error) {
	src, err := load(ctx, dirs, includeDefault, nil)
	if err != nil {
		return TestReport{}, err
	}
	runner := tester.NewRunner().
		SetCompiler(ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1).WithEnablePrintStatements(true)).
		SetStore(inmem.NewFromObject(src.data)).
		SetModules(src.modules).
		RaiseBuiltinErrors(true).
		SetTimeout(testTimeout)
	ch, err := runner.RunTests(ctx, nil)
	if err != nil {
		return TestReport{}, fmt.Errorf("test policies: %w", err)
	}
	report := TestReport{Results: []TestResult{}}
	type located struct {
		TestResult
		file string
		row  int
	}
	var all []located
	for r := range ch {
		tr := TestResult{
			Package:  strings.TrimPrefix(r.Package, "data."),
			Name:     r.Name,
			Pass:     r.Pass(),
			Fail:     r.Fail,
			Skip:     r.Skip,
			Duration: r.Duration,
		}
		if r.Error != nil {
			tr.Error = r.Error.Error()
		}
		l := located{TestResult: tr}
		if r.Location != nil {
			l.file, l.row = r.Location.File, r.Location.Row
			tr.File = fmt.Sprintf("%s:%d", l.file, l.row)
			l.TestResult = tr
		}
		all = append(all, l)
	}
	if err := ctx.Err(); err != nil {
		return TestReport{}, fmt.Errorf("test policies: %w", err)
	}
	slices.SortFunc(all, func(a, b located) int {
		return cmp.Or(
			cmp.Compare(a.Package, b.Package),
			cmp.Compare(a.file, b.file),
			cmp.Compare(a.row, b.row),
			cmp.Compare(a.Name, b.Name),
		)
	})
	for _, l := range all {
		report.Results = append(report.Results, l.TestResult)
	}
	return report, nil
}
