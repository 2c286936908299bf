package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlot(t *testing.T) {
	in := filepath.Join(t.TempDir(), "bench.txt.curve")
	if err := os.WriteFile(in, []byte("100 0.05 0.06 52\n1000 0.25 0.33 64\n10000 3.0 3.7 174\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pts, err := read(in)
	if err != nil || len(pts) != 3 || pts[2].stacks != 10000 || pts[2].rssM != 174 {
		t.Fatalf("read(%q) = %+v, %v, want 3 sizes up to 10000 stacks and 174 MiB", in, pts, err)
	}
	svg := plot("t", pts)
	for _, want := range []string{"<svg", "10000", "ms per stack", "peak RSS, MiB", "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("plot(%+v) lacks %q", pts, want)
		}
	}
	if n := strings.Count(svg, "<circle"); n != 9 {
		t.Errorf("plot(%+v) has %d points, want 9 (wall, CPU and RSS at 3 sizes)", pts, n)
	}
}

func TestReadRefuses(t *testing.T) {
	for _, body := range []string{"100 0.05 0.06\n", "x 1 1 1\n", "0 1 1 1\n"} {
		in := filepath.Join(t.TempDir(), "c")
		if err := os.WriteFile(in, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if pts, err := read(in); err == nil {
			t.Errorf("read(%q) = %+v, want an error", body, pts)
		}
	}
}

func TestNice(t *testing.T) {
	for v, want := range map[float64]float64{0: 1, 0.3: 0.5, 0.74: 1, 174: 200, 1.2: 2} {
		if got := nice(v); got != want {
			t.Errorf("nice(%v) = %v, want %v", v, got, want)
		}
	}
}
