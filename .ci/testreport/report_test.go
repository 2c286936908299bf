package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReport(t *testing.T) {
	in, err := os.Open("testdata/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	r := newReport(&out, "github.com/strata-iac/strata")
	if err := read(in, r); err != nil {
		t.Fatal(err)
	}
	r.summary(&out, "make test", 2)
	want := strings.Join([]string{
		"    slow_test.go:9: got 1, want 2\n",
		"--- FAIL: TestSlow (31.00s)\n",
		"FAIL\n",
		"FAIL\tgithub.com/strata-iac/strata/a\t31.5s\n",
		"ok  \tgithub.com/strata-iac/strata/b\t5.2s\n",
		"c/c.go:3:1: syntax error\n",
		"# a line that is not JSON\n",
		"\nmake test: the 2 slowest tests\n",
		"     31.0s  a TestSlow (failed)\n",
		"      5.0s  b TestMiddle\n",
		"make test: the 2 slowest packages\n",
		"     31.5s  a (failed)\n",
		"      5.2s  b\n",
	}, "")
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("report of testdata/run.jsonl differs (-want +got):\n%s", diff)
	}
	if !r.failed {
		t.Errorf("report.failed = false, want true after a failed test and a failed build")
	}
}

func TestReportPasses(t *testing.T) {
	var out bytes.Buffer
	r := newReport(&out, "m")
	events := `{"Action":"run","Package":"m/p","Test":"TestA"}
{"Action":"output","Package":"m/p","Test":"TestA","Output":"--- PASS: TestA (1.00s)\n"}
{"Action":"pass","Package":"m/p","Test":"TestA","Elapsed":1}
{"Action":"pass","Package":"m/p","Elapsed":1.1}
`
	if err := read(strings.NewReader(events), r); err != nil {
		t.Fatal(err)
	}
	if r.failed {
		t.Errorf("report.failed = true, want false when everything passed")
	}
	if out.String() != "" {
		t.Errorf("output = %q, want nothing of a passing test", out.String())
	}
}

func TestSlowest(t *testing.T) {
	ts := []timing{{pkg: "p", test: "B", seconds: 2}, {pkg: "p", test: "A", seconds: 2}, {pkg: "p", test: "C", seconds: 9}}
	got := slowest(ts, 5)
	want := []timing{{pkg: "p", test: "C", seconds: 9}, {pkg: "p", test: "A", seconds: 2}, {pkg: "p", test: "B", seconds: 2}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(timing{})); diff != "" {
		t.Errorf("slowest(%v, 5) differs (-want +got):\n%s", ts, diff)
	}
}
