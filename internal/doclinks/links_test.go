package doclinks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLinks(t *testing.T) {
	tests := []struct {
		name, page string
		want       []Link
	}{
		{"inline and image", "See [a](a.md#x) and ![b](b.png).\n", []Link{{1, "a.md#x"}, {1, "b.png"}}},
		{"text over a line break", "See [the\nkept part](#kept).\n", []Link{{2, "#kept"}}},
		{"title and angle brackets", "[a](a.md \"A page\") [b](<b c.md>)\n", []Link{{1, "a.md"}, {1, "b c.md"}}},
		{"reference definition", "text\n\n[ref]: docs/x.md\n", []Link{{3, "docs/x.md"}}},
		{"fenced code", "```\n[no](x.md)\n```\n[yes](y.md)\n", []Link{{4, "y.md"}}},
		{"code span", "`[no](x.md)` [yes](y.md)\n", []Link{{1, "y.md"}}},
		{"code span over a line break", "``a\n[no](x.md)`` [yes](y.md)\n", []Link{{2, "y.md"}}},
		{"an unclosed backtick ends with its paragraph", "a ` b\n\n[yes](y.md) `c`\n", []Link{{3, "y.md"}}},
		{"in order of lines", "[r]: r.md\n\n[i](i.md)\n", []Link{{1, "r.md"}, {3, "i.md"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Links([]byte(tt.page))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Links(%q) differs (-want +got):\n%s", tt.page, diff)
			}
		})
	}
}

// FuzzLinks checks that Links and Anchors take any page, and that every
// link is on a line of the page.
func FuzzLinks(f *testing.F) {
	f.Add("# T\n[a](b.md#c) `x` ```\n[r]: s\n")
	f.Add("``a\n\n[b](c)``\nT\n-\n<a id=\"x\">")
	f.Fuzz(func(t *testing.T, page string) {
		lines := 1
		for _, c := range page {
			if c == '\n' {
				lines++
			}
		}
		for _, l := range Links([]byte(page)) {
			if l.Line < 1 || l.Line > lines {
				t.Errorf("Links(%q) has a link on line %d of %d", page, l.Line, lines)
			}
		}
		Anchors([]byte(page))
	})
}
