package environment

import "testing"

// TestStackLookup checks Stack on a sorted list, as a load leaves it, and
// on one that is not sorted any more (a caller appended to it).
func TestStackLookup(t *testing.T) {
	sorted := &Environment{Stacks: []*Stack{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	unsorted := &Environment{Stacks: []*Stack{{Name: "c"}, {Name: "a"}, {Name: "z"}, {Name: "b"}}}
	for _, env := range []*Environment{sorted, unsorted, {}} {
		for _, name := range []string{"a", "b", "c", "z", "missing"} {
			var want *Stack
			for _, s := range env.Stacks {
				if s.Name == name {
					want = s
				}
			}
			if got := env.Stack(name); got != want {
				t.Errorf("Stack(%q) = %v, want %v", name, got, want)
			}
		}
	}
}
