package cliconfig

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl"
	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/hcl/printer"
)

// Check reports whether text is a CLI configuration tofu can read: HCL 1,
// or its JSON form.
func Check(text string) error {
	_, err := parse(text)
	return err
}

// Merge returns one CLI configuration of the user's and strata's own: the
// user's settings, and each of own's that the user's does not set (by its
// top-level name: a provider_installation block of the user's replaces
// strata's, a credentials block for another host is added to them).
// Dropped names own's settings that the user's replaced, sorted.
func Merge(user, own string) (merged string, dropped []string, err error) {
	u, err := parse(user)
	if err != nil {
		return "", nil, err
	}
	o, err := parse(own)
	if err != nil {
		return "", nil, fmt.Errorf("strata's own CLI configuration: %w", err)
	}
	set := map[string]bool{}
	for _, item := range u.Items {
		set[itemKey(item)] = true
	}
	out := &ast.ObjectList{Items: slices.Clone(u.Items)}
	for _, item := range o.Items {
		if k := itemKey(item); set[k] {
			if !slices.Contains(dropped, k) {
				dropped = append(dropped, k)
			}
			continue
		}
		out.Add(item)
	}
	slices.Sort(dropped)
	var b bytes.Buffer
	if err := printer.Fprint(&b, &ast.File{Node: out}); err != nil {
		return "", nil, fmt.Errorf("write CLI configuration: %w", err)
	}
	b.WriteByte('\n')
	return b.String(), dropped, nil
}

// parse reads a CLI configuration's top level.
func parse(text string) (*ast.ObjectList, error) {
	f, err := hcl.ParseString(text)
	if err != nil {
		return nil, err
	}
	list, ok := f.Node.(*ast.ObjectList)
	if !ok {
		return nil, errors.New("not a CLI configuration: its top level is not a set of settings")
	}
	return list, nil
}

// itemKey is the name of a top-level setting with its labels, as the
// merge compares them: "plugin_cache_dir", `credentials "app.terraform.io"`.
func itemKey(item *ast.ObjectItem) string {
	keys := make([]string, 0, len(item.Keys))
	for _, k := range item.Keys {
		text := k.Token.Text
		if s, err := strconv.Unquote(text); err == nil {
			text = s
		}
		keys = append(keys, text)
	}
	if len(keys) == 0 {
		return ""
	}
	for i := 1; i < len(keys); i++ {
		keys[i] = strconv.Quote(keys[i])
	}
	return strings.Join(keys, " ")
}
