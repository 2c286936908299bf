package doclinks

import (
	"bytes"
	"regexp"
	"strings"
)

// Link is one link of a page: its target as written, and the line it is on.
type Link struct {
	Line   int
	Target string
}

var (
	fence = regexp.MustCompile("^[ \t]*(```+|~~~+)")
	// inlineTarget is the target of an inline link or image, "](target)",
	// "](<target>)" or with a title, "](target "title")"
	inlineTarget = regexp.MustCompile(`\]\(\s*(<[^>\n]*>|[^\s()]*)(?:\s+"[^"\n]*")?\s*\)`)
	// reference is a link reference definition, "[label]: target"
	reference = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:[ \t]*(<[^>\n]*>|\S+)`)
)

// Links returns the targets of a page's inline links and images and its
// link reference definitions, in order, leaving out those in fenced code
// blocks and in code spans, as GitHub renders neither as a link.
func Links(src []byte) []Link {
	text := blankCode(src)
	var links []Link
	add := func(at int, target string) {
		target = strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">")
		links = append(links, Link{Line: 1 + bytes.Count(text[:at], []byte("\n")), Target: target})
	}
	for _, m := range inlineTarget.FindAllSubmatchIndex(text, -1) {
		add(m[2], string(text[m[2]:m[3]]))
	}
	for _, m := range reference.FindAllSubmatchIndex(text, -1) {
		add(m[2], string(text[m[2]:m[3]]))
	}
	sortByLine(links)
	return links
}

func sortByLine(links []Link) {
	for i := 1; i < len(links); i++ {
		for j := i; j > 0 && links[j].Line < links[j-1].Line; j-- {
			links[j], links[j-1] = links[j-1], links[j]
		}
	}
}

// blankCode returns the page with its fenced code blocks and its code
// spans (which may run over a line break) turned into spaces, each line
// break kept, so that offsets in it are lines of the page.
func blankCode(src []byte) []byte {
	out := blankFences(src)
	blankSpans(out)
	return out
}

// blankFences returns the page with its fenced code blocks turned into
// spaces, each line break kept.
func blankFences(src []byte) []byte {
	out := bytes.Clone(src)
	lines := bytes.SplitAfter(out, []byte("\n"))
	var open string
	for _, line := range lines {
		if m := fence.FindSubmatch(line); m != nil {
			marker := string(m[1])
			switch {
			case open == "":
				open = marker
				blank(line)
				continue
			case marker[0] == open[0] && len(marker) >= len(open) &&
				len(bytes.TrimSpace(line)) == len(marker):
				open = ""
				blank(line)
				continue
			}
		}
		if open != "" {
			blank(line)
		}
	}
	return out
}

// blankSpans blanks every code span: a run of backticks, up to the next
// run of as many in the same paragraph.
func blankSpans(text []byte) {
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := run(text, i)
		end := -1
		for j := i + n; j < len(text); {
			if text[j] == '\n' && blankLineAt(text[j+1:]) {
				break
			}
			if text[j] != '`' {
				j++
				continue
			}
			m := run(text, j)
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			i += n
			continue
		}
		blank(text[i:end])
		i = end
	}
}

// blankLineAt says whether the line text starts with is empty or spaces
// only: a paragraph's end.
func blankLineAt(text []byte) bool {
	line, _, _ := bytes.Cut(text, []byte("\n"))
	return len(bytes.TrimSpace(line)) == 0
}

func run(text []byte, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	return n
}

func blank(b []byte) {
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
}
