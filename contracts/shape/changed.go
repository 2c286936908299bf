package shape

import (
	"reflect"
	"slices"

	"github.com/strata-iac/strata/contracts"
)

// Changed lists the keys of the published document last whose value a
// consumer may see change when next (from Next) is published: a key
// removed or moved, a value that differs, a value not known before
// apply, and a key added. A key of a section whose keys are unknown
// counts as changed. The fields carry last's type, or next's for a key
// added.
func Changed(last, next contracts.Document, unknownSections []string) []Field {
	var out []Field
	for _, part := range []struct {
		section    string
		last, next map[string]any
	}{{contracts.OutputPrivate, last.Private, next.Private}, {contracts.OutputPublic, last.Public, next.Public}} {
		sectionUnknown := slices.Contains(unknownSections, part.section)
		for name, v := range part.last {
			nv, ok := part.next[name]
			if sectionUnknown || !ok || !Known(nv) || !reflect.DeepEqual(v, nv) {
				out = append(out, Field{Section: part.section, Name: name, Type: TypeOf(v)})
			}
		}
		for name, nv := range part.next {
			if _, ok := part.last[name]; !ok {
				out = append(out, Field{Section: part.section, Name: name, Type: TypeOf(nv)})
			}
		}
	}
	slices.SortFunc(out, compareFields)
	return out
}
