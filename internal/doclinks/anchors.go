package doclinks

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	atxHeading    = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	setextLine    = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	htmlAnchor    = regexp.MustCompile(`<a\s[^>]*\b(?:id|name)\s*=\s*"([^"]+)"`)
	notParagraphs = regexp.MustCompile(`^ {0,3}([-*+|>#]|\d+[.)]|$)`)
)

// Anchors returns the anchors of a Markdown page: the slug of each heading
// (ATX "## Title" and setext, underlined with = or -), a repeated slug
// numbered as GitHub numbers it ("title", "title-1", "title-2"), and the
// id or name of every HTML <a> element. Headings inside fenced code
// blocks are not headings.
func Anchors(src []byte) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	add := func(heading string) {
		slug := Slug(heading)
		n, repeated := seen[slug]
		seen[slug] = n + 1
		if repeated {
			slug = fmt.Sprintf("%s-%d", slug, n)
		}
		anchors[slug] = true
	}
	lines := strings.Split(string(blankFences(src)), "\n")
	for i, line := range lines {
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			add(m[2])
			continue
		}
		if i > 0 && setextLine.MatchString(line) && !notParagraphs.MatchString(lines[i-1]) &&
			!setextLine.MatchString(lines[i-1]) {
			add(lines[i-1])
		}
	}
	return anchors
}
