package review

import (
	"fmt"
	"strings"
)

// CommentLimit is the most characters a GitHub comment holds.
const CommentLimit = 65536

// Cut returns review as a comment of at most limit bytes (so at most as
// many characters): whole when it fits; otherwise cut at the last stack
// section that fits whole (or, for a section longer than that, at the
// last line that fits, its open <details> closed), followed by a line
// that says where the rest is: rest, the file the whole review is
// written to. cut reports whether it cut.
func Cut(review string, limit int, rest string) (comment string, cut bool) {
	if len(review) <= limit {
		return review, false
	}
	note := func(sections int) string {
		return fmt.Sprintf("\n---\n**This review is cut at GitHub's limit of %d characters**, %s not shown here: the whole review is in `%s`.\n",
			limit, count(sections, "more stack section"), rest)
	}
	total := strings.Count(review, "\n### ")
	// Leave room for the note at its longest, and a closing </details>.
	room := limit - len(note(total)) - len("</details>\n")
	if room <= 0 {
		return note(total)[1:], true
	}
	kept := review[:room]
	first := strings.Index(review, "\n### ")
	if i := strings.LastIndex(kept, "\n### "); i > first {
		kept = kept[:i+1] // whole sections
	} else if i := strings.LastIndexByte(kept, '\n'); i >= 0 {
		kept = kept[:i+1] // the first section is longer than a comment
	}
	if strings.Count(kept, "<details>") > strings.Count(kept, "</details>") {
		kept += "</details>\n"
	}
	return kept + note(total-strings.Count(kept, "\n### ")), true
}
