package shape

import (
	"fmt"

	"github.com/strata-iac/strata/contracts/readers"
)

// Break is a consumer's read that a difference breaks.
type Break struct {
	Read readers.Read `json:"read"`
	// Field is the key as the consumer reads it today.
	Field Field `json:"field"`
	// Why is what happens to it: "removed", "moved to private", "changed
	// from string to list".
	Why string `json:"why"`
}

// Breaks returns the reads of one contract that the difference breaks. A
// read that reaches every key of a section (a whole object passed on) is
// broken by any breaking change in it. A key that moves section breaks
// the reads of its old section; a read that reaches either section by the
// key alone (a map of the contract's keys) still finds it. An optional
// read (inside try or can) copes with a key removed or moved, not with a
// change of type.
func Breaks(d Difference, reads []readers.Read) []Break {
	var out []Break
	for _, r := range reads {
		for _, f := range d.Removed {
			if r.Reads(f.Section, f.Name) && !r.Optional {
				out = append(out, Break{Read: r, Field: f, Why: "removed"})
			}
		}
		for _, m := range d.Moved {
			if r.Reads(m.Section, m.Name) && (r.Section != "" || r.Whole()) && !r.Optional {
				out = append(out, Break{Read: r, Field: m.Field, Why: "moved to " + m.To})
			}
		}
		for _, c := range d.Changed {
			if r.Reads(c.Section, c.Name) {
				out = append(out, Break{Read: r, Field: c.Field, Why: fmt.Sprintf("changed from %s to %s", c.Type, c.To)})
			}
		}
	}
	return out
}

// Touches returns the keys of a difference that the reads reach: those a
// consumer of the contract reads that are removed, moved, changed or
// added. It says whether a consumer is concerned by a change of shape.
func Touches(d Difference, reads []readers.Read) []Field {
	var out []Field
	seen := map[Field]bool{}
	add := func(f Field) {
		for _, r := range reads {
			if r.Reads(f.Section, f.Name) && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	for _, f := range d.Removed {
		add(f)
	}
	for _, m := range d.Moved {
		add(m.Field)
	}
	for _, c := range d.Changed {
		add(c.Field)
	}
	for _, f := range d.Added {
		add(f)
	}
	return out
}
