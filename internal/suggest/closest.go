package suggest

import (
	"strings"

	"github.com/agext/levenshtein"
)

// Closest returns the candidate nearest to s, ignoring case, and its edit
// distance; "" and -1 when there are no candidates. Of candidates at the
// same distance, the first wins.
func Closest(s string, candidates []string) (string, int) {
	best, dist := "", -1
	for _, c := range candidates {
		d := levenshtein.Distance(strings.ToLower(s), strings.ToLower(c), nil)
		if dist < 0 || d < dist {
			best, dist = c, d
		}
	}
	return best, dist
}
