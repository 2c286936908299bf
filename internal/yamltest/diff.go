package yamltest

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Diff says where two node trees first differ, naming the node by its
// path of child indexes below at, or "" when they do not.
func Diff(at string, got, want *yaml.Node) string {
	if got == nil || want == nil {
		if got != want {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
		return ""
	}
	if g, w := fieldsOf(got), fieldsOf(want); g != w {
		return fmt.Sprintf("%s: got %+v, want %+v", at, g, w)
	}
	if len(got.Content) != len(want.Content) {
		return fmt.Sprintf("%s: got %d children, want %d", at, len(got.Content), len(want.Content))
	}
	for i := range got.Content {
		if d := Diff(fmt.Sprintf("%s[%d]", at, i), got.Content[i], want.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// fields are the fields of a node besides its Content.
type fields struct {
	Kind                                  yaml.Kind
	Style                                 yaml.Style
	Tag, Value, Anchor                    string
	Alias                                 *yaml.Node
	HeadComment, LineComment, FootComment string
	Line, Column                          int
}

func fieldsOf(n *yaml.Node) fields {
	return fields{n.Kind, n.Style, n.Tag, n.Value, n.Anchor, n.Alias, n.HeadComment, n.LineComment, n.FootComment, n.Line, n.Column}
}
