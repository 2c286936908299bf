package doclinks

import (
	"regexp"
	"strings"
	"unicode"
)

var (
	// inlineLink is a link or image in a heading: its text is what GitHub
	// renders, and so what it makes the anchor of
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag    = regexp.MustCompile(`<[^>]*>`)
)

// Slug returns the anchor GitHub makes of a heading's text, the first time
// the page has it: the rendered text in lower case, each space a hyphen,
// and every character but letters, digits, hyphens and underscores left
// out ("Cluster mode: `strata controller`" is
// "cluster-mode-strata-controller"). Anchors numbers the repeats.
func Slug(heading string) string {
	text := inlineLink.ReplaceAllString(heading, "$1")
	text = htmlTag.ReplaceAllString(text, "")
	var b strings.Builder
	for _, r := range strings.TrimSpace(text) {
		switch {
		case unicode.IsLetter(r), unicode.IsNumber(r), unicode.IsMark(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}
