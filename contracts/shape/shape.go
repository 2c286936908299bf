package shape

import (
	"cmp"
	"maps"
	"slices"

	"github.com/strata-iac/strata/contracts"
)

// Types of a value, as JSON has them. Unknown is a value tofu only knows
// after apply; Null is JSON null.
const (
	String  = "string"
	Number  = "number"
	Bool    = "bool"
	List    = "list"
	Object  = "object"
	Null    = "null"
	Unknown = "unknown"
)

// Field is one key of a contract.
type Field struct {
	// Section is contracts.OutputPublic or contracts.OutputPrivate.
	Section string `json:"section"`
	Name    string `json:"name"`
	Type    string `json:"type"`
}

// Shape is a contract's keys and their types.
type Shape struct {
	// Fields are sorted by section, then name.
	Fields []Field `json:"fields"`
	// Unknown lists the sections whose keys are only known after apply.
	Unknown []string `json:"unknown,omitempty"`
}

// Field returns the key name of section.
func (s Shape) Field(section, name string) (Field, bool) {
	i, ok := slices.BinarySearchFunc(s.Fields, Field{Section: section, Name: name}, compareFields)
	if !ok {
		return Field{}, false
	}
	return s.Fields[i], true
}

// Known reports whether the keys of section are known.
func (s Shape) Known(section string) bool { return !slices.Contains(s.Unknown, section) }

// Of returns the shape of a document.
func Of(d contracts.Document) Shape {
	var s Shape
	for _, part := range []struct {
		section string
		values  map[string]any
	}{{contracts.OutputPublic, d.Public}, {contracts.OutputPrivate, d.Private}} {
		for _, name := range slices.Sorted(maps.Keys(part.values)) {
			s.Fields = append(s.Fields, Field{Section: part.section, Name: name, Type: TypeOf(part.values[name])})
		}
	}
	slices.SortFunc(s.Fields, compareFields)
	return s
}

// TypeOf is the type of a JSON-decoded value, or Unknown for a value
// only known after apply.
func TypeOf(v any) string {
	switch v.(type) {
	case string:
		return String
	case float64, int, int64:
		return Number
	case bool:
		return Bool
	case []any:
		return List
	case map[string]any:
		return Object
	case nil:
		return Null
	default:
		return Unknown
	}
}

// Compatible reports whether a consumer that read a value of type from
// can read one of type to: the same type, or one side not known (null or
// unknown).
func Compatible(from, to string) bool {
	return from == to || from == Null || to == Null || from == Unknown || to == Unknown
}

func compareFields(a, b Field) int {
	return cmp.Or(cmp.Compare(a.Section, b.Section), cmp.Compare(a.Name, b.Name))
}
