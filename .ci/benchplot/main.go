package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// point is one size of the curve.
type point struct {
	stacks          int
	wall, cpu, rssM float64
}

func main() {
	in := flag.String("in", "bin/bench.txt.curve", "the curve .ci/bench.sh wrote")
	out := flag.String("out", "docs/load-curve.svg", "the SVG to write")
	title := flag.String("title", "strata graph, cold load", "the plot's title")
	flag.Parse()
	pts, err := read(*in)
	if err == nil && len(pts) < 2 {
		err = fmt.Errorf("%s: %d sizes, want at least 2", *in, len(pts))
	}
	if err == nil {
		err = os.WriteFile(*out, []byte(plot(*title, pts)), 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchplot: %v\n", err)
		os.Exit(1)
	}
}

// read reads the curve file.
func read(path string) ([]point, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pts []point
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 fields, got %d", path, line, len(fs))
		}
		var p point
		var errs [4]error
		p.stacks, errs[0] = strconv.Atoi(fs[0])
		p.wall, errs[1] = strconv.ParseFloat(fs[1], 64)
		p.cpu, errs[2] = strconv.ParseFloat(fs[2], 64)
		p.rssM, errs[3] = strconv.ParseFloat(fs[3], 64)
		for _, e := range errs {
			if e != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, line, e)
			}
		}
		if p.stacks <= 0 {
			return nil, fmt.Errorf("%s:%d: %d stacks", path, line, p.stacks)
		}
		pts = append(pts, p)
	}
	return pts, sc.Err()
}

// Plot geometry: two panels side by side.
const (
	width, height     = 760, 320
	left, right       = 60, 20
	top, bottom       = 54, 50
	gap               = 70
	panelW            = (width - left - right - gap) / 2
	panelH            = height - top - bottom
	wallColor, cpuCol = "#1f77b4", "#ff7f0e"
	rssColor          = "#2ca02c"
)

// plot draws the two panels: ms per stack (wall and CPU), and peak RSS.
func plot(title string, pts []point) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", left, escape(title))
	minN, maxN := float64(pts[0].stacks), float64(pts[len(pts)-1].stacks)
	x := func(x0 int, n int) float64 {
		if maxN == minN {
			return float64(x0)
		}
		return float64(x0) + (math.Log10(float64(n))-math.Log10(minN))/(math.Log10(maxN)-math.Log10(minN))*panelW
	}
	perStack := func(p point, v float64) float64 { return v * 1000 / float64(p.stacks) }
	maxMs, maxRSS := 0.0, 0.0
	for _, p := range pts {
		maxMs = math.Max(maxMs, math.Max(perStack(p, p.wall), perStack(p, p.cpu)))
		maxRSS = math.Max(maxRSS, p.rssM)
	}
	maxMs, maxRSS = nice(maxMs), nice(maxRSS)
	panel := func(x0 int, label string, max float64, series []struct {
		name, color string
		v           func(point) float64
	}) {
		y := func(v float64) float64 { return float64(top+panelH) - v/max*panelH }
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", x0, top+panelH, x0+panelW, top+panelH)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", x0, top, x0, top+panelH)
		for i := 0; i <= 4; i++ {
			v := max * float64(i) / 4
			fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", x0, y(v), x0+panelW, y(v))
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", x0-4, y(v)+4, strconv.FormatFloat(v, 'g', 3, 64))
		}
		for _, p := range pts {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(x0, p.stacks), top+panelH+16, p.stacks)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">stacks (log scale)</text>`+"\n", x0+panelW/2, top+panelH+34)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", x0, top-8, escape(label))
		for i, s := range series {
			var path strings.Builder
			for j, p := range pts {
				cmd := "L"
				if j == 0 {
					cmd = "M"
				}
				fmt.Fprintf(&path, "%s%.1f %.1f ", cmd, x(x0, p.stacks), y(s.v(p)))
			}
			fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.TrimSpace(path.String()), s.color)
			for _, p := range pts {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", x(x0, p.stacks), y(s.v(p)), s.color)
			}
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">%s</text>`+"\n", x0+panelW-110, top+14+16*i, s.color, escape(s.name))
		}
	}
	type series = struct {
		name, color string
		v           func(point) float64
	}
	panel(left, "ms per stack", maxMs, []series{
		{"wall", wallColor, func(p point) float64 { return perStack(p, p.wall) }},
		{"CPU", cpuCol, func(p point) float64 { return perStack(p, p.cpu) }},
	})
	panel(left+panelW+gap, "peak RSS, MiB", maxRSS, []series{
		{"RSS", rssColor, func(p point) float64 { return p.rssM }},
	})
	b.WriteString("</svg>\n")
	return b.String()
}

// nice rounds a maximum up to 1, 2 or 5 times a power of ten.
func nice(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// escape escapes text for SVG.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
