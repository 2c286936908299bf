package contracts

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// addType records typ as the type of key name, when it is known.
func addType(doc *Document, name string, typ json.RawMessage) {
	if len(typ) == 0 {
		return
	}
	if doc.Types == nil {
		doc.Types = map[string]string{}
	}
	doc.Types[name] = string(typ)
}

// addAttributeTypes records, for each key of an explicit split's value m,
// its type within typ: the attribute type of an object, the element type
// of a map. A type tofu did not give, or that is neither, records nothing.
func addAttributeTypes(doc *Document, m map[string]any, typ json.RawMessage) {
	if len(typ) == 0 {
		return
	}
	ty, err := ctyjson.UnmarshalType(typ)
	if err != nil {
		return
	}
	for k := range m {
		var at cty.Type
		switch {
		case ty.IsObjectType() && ty.HasAttribute(k):
			at = ty.AttributeType(k)
		case ty.IsMapType():
			at = ty.ElementType()
		default:
			continue
		}
		b, err := ctyjson.MarshalType(at)
		if err != nil {
			continue
		}
		addType(doc, k, b)
	}
}
