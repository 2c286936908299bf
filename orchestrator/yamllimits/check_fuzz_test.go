package yamllimits

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzCheck feeds arbitrary YAML, seeded with alias bombs, deep
// nesting and large scalars, through the checks every manifest passes
// before kustomize reads it. They must never panic, count no more nodes
// written than the text could hold, and take time linear in the text: a
// document that expands to billions of nodes is measured, not expanded.
func FuzzCheck(f *testing.F) {
	bomb := func(levels, refs int) string {
		var b strings.Builder
		b.WriteString("l0: &l0 [x]\n")
		for i := 1; i <= levels; i++ {
			b.WriteString("l" + strconv.Itoa(i) + ": &l" + strconv.Itoa(i) + " [")
			for j := range refs {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString("*l" + strconv.Itoa(i-1))
			}
			b.WriteString("]\n")
		}
		return b.String()
	}
	for _, seed := range []string{
		bomb(9, 9), bomb(40, 2), bomb(3, 50),
		"a: &a {b: &b {c: &c [1, 2]}}\nd: {<<: *a, e: *b, f: *c}\n",
		"x: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n",
		"x: " + strings.Repeat("{a: ", 150) + "1" + strings.Repeat("}", 150) + "\n",
		"data:\n  big: \"" + strings.Repeat("z", 1<<16) + "\"\n",
		"- &a x\n- *a\n---\n- *a\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		start := time.Now()
		docs := Decode([]byte(text))
		for _, p := range Check("x.yaml", docs) {
			if p.File != "x.yaml" || p.Fix == "" {
				t.Errorf("Check(%q) = %v, want a problem of x.yaml with a fix", text, p)
			}
		}
		for _, d := range docs {
			if s := Measure(d); s.Nodes > 2*len(text)+2 {
				t.Errorf("Measure(%q) counted %d nodes written, more than the text holds", text, s.Nodes)
			}
		}
		// Generous for a loaded machine and the race detector; a
		// quadratic or exponential walk of the seeds takes minutes.
		if took := time.Since(start); took > 5*time.Second+time.Duration(len(text))*time.Microsecond {
			t.Errorf("Check of %d bytes took %v", len(text), took)
		}
	})
}
