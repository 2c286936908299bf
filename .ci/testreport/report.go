package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json), build events
// included.
type event struct {
	Action     string
	Package    string
	Test       string
	Elapsed    float64
	Output     string
	ImportPath string
}

// timing is how long a test or a package took, and whether it failed.
type timing struct {
	pkg, test string
	seconds   float64
	failed    bool
}

type testKey struct{ pkg, test string }

// report follows a run's events: it writes the lines a CI log keeps to
// out as they come, and remembers the timings for its summary.
type report struct {
	out      io.Writer
	module   string // trimmed from package names in the summary
	pending  map[testKey][]string
	tests    []timing
	packages []timing
	failed   bool
}

func newReport(out io.Writer, module string) *report {
	return &report{out: out, module: module, pending: map[testKey][]string{}}
}

// add takes one event. A test's output is held until it ends: written if
// it failed, dropped if it passed or skipped. A package's own output (its
// "ok" or "FAIL" line, a panic outside any test) is written at once, but
// for the bare "PASS" line before its "ok".
func (r *report) add(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(r.out, e.Output)
		return
	case "build-fail":
		r.failed = true
		return
	}
	key := testKey{e.Package, e.Test}
	switch {
	case e.Action == "output" && e.Test == "":
		if e.Output != "PASS\n" {
			fmt.Fprint(r.out, e.Output)
		}
	case e.Action == "output":
		r.pending[key] = append(r.pending[key], e.Output)
	case e.Action == "pass" || e.Action == "fail":
		failed := e.Action == "fail"
		r.failed = r.failed || failed
		t := timing{pkg: e.Package, test: e.Test, seconds: e.Elapsed, failed: failed}
		if e.Test == "" {
			r.packages = append(r.packages, t)
			return
		}
		if failed {
			fmt.Fprint(r.out, strings.Join(r.pending[key], ""))
		}
		delete(r.pending, key)
		if !strings.Contains(e.Test, "/") {
			r.tests = append(r.tests, t)
		}
	case e.Action == "skip":
		delete(r.pending, key)
	}
}

// summary writes the n slowest top-level tests and the n slowest packages.
func (r *report) summary(w io.Writer, title string, n int) {
	fmt.Fprintf(w, "\n%s: the %d slowest tests\n", title, min(n, len(r.tests)))
	for _, t := range slowest(r.tests, n) {
		fmt.Fprintf(w, "  %7.1fs  %s %s%s\n", t.seconds, r.short(t.pkg), t.test, failMark(t))
	}
	fmt.Fprintf(w, "%s: the %d slowest packages\n", title, min(n, len(r.packages)))
	for _, t := range slowest(r.packages, n) {
		fmt.Fprintf(w, "  %7.1fs  %s%s\n", t.seconds, r.short(t.pkg), failMark(t))
	}
}

func (r *report) short(pkg string) string {
	if s, ok := strings.CutPrefix(pkg, r.module+"/"); ok {
		return s
	}
	return pkg
}

func failMark(t timing) string {
	if t.failed {
		return " (failed)"
	}
	return ""
}

// slowest returns the n longest timings, longest first, ties by name.
func slowest(ts []timing, n int) []timing {
	s := slices.Clone(ts)
	slices.SortStableFunc(s, func(a, b timing) int {
		if c := cmp.Compare(b.seconds, a.seconds); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.pkg, b.pkg), cmp.Compare(a.test, b.test))
	})
	return s[:min(n, len(s))]
}
