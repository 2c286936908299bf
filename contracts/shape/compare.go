package shape

import "slices"

// Difference is how the next shape of a contract differs from the last.
type Difference struct {
	// Removed are fields of the last shape the next one no longer has.
	Removed []Field `json:"removed"`
	// Moved are fields now in the other section: Field is where the key
	// was, To the section it moves to.
	Moved []Move `json:"moved"`
	// Changed are fields whose type changes incompatibly.
	Changed []Change `json:"changed"`
	// Added are fields the last shape did not have.
	Added []Field `json:"added"`
}

// Move is a key that changes section.
type Move struct {
	Field
	To string `json:"to"`
}

// Change is a key whose type changes.
type Change struct {
	Field
	To string `json:"to"`
}

// Breaking reports whether the difference can break a consumer: a key
// removed, moved or changed incompatibly.
func (d Difference) Breaking() bool {
	return len(d.Removed) > 0 || len(d.Moved) > 0 || len(d.Changed) > 0
}

// Empty reports whether the shapes have the same keys and compatible
// types.
func (d Difference) Empty() bool { return !d.Breaking() && len(d.Added) == 0 }

// Compare returns how next differs from last. A key missing from a
// section of next whose keys are unknown is not removed: it may still
// be there after apply.
func Compare(last, next Shape) Difference {
	last, next = last.sorted(), next.sorted()
	d := Difference{Removed: []Field{}, Moved: []Move{}, Changed: []Change{}, Added: []Field{}}
	for _, f := range last.Fields {
		if n, ok := next.Field(f.Section, f.Name); ok {
			if !Compatible(f.Type, n.Type) {
				d.Changed = append(d.Changed, Change{Field: f, To: n.Type})
			}
			continue
		}
		if !next.Known(f.Section) {
			continue
		}
		if other := otherSection(f.Section); next.hasIn(other, f.Name) {
			d.Moved = append(d.Moved, Move{Field: f, To: other})
			continue
		}
		d.Removed = append(d.Removed, f)
	}
	for _, n := range next.Fields {
		if _, ok := last.Field(n.Section, n.Name); !ok && !last.hasIn(otherSection(n.Section), n.Name) {
			d.Added = append(d.Added, n)
		}
	}
	return d
}

// sorted returns s with its fields sorted, as Field needs them.
func (s Shape) sorted() Shape {
	s.Fields = slices.Clone(s.Fields)
	slices.SortFunc(s.Fields, compareFields)
	return s
}

func (s Shape) hasIn(section, name string) bool {
	_, ok := s.Field(section, name)
	return ok
}

func otherSection(section string) string {
	if section == "public" {
		return "private"
	}
	return "public"
}
