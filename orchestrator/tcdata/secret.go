package tcdata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// TypeSuffix ends the key that holds the type of a non-string output in a
// Tofu Controller output Secret, as it has written it since v0.15
// (api/typeinfo: "<key>__type").
const TypeSuffix = "__type"

// Flat is a contract's keys as the producer's output Secret holds them:
// public and private merged (the Tofu Controller has no split). A key in
// both goes to private, which never happens in a document strata builds.
func Flat(public, private map[string]any) map[string]any {
	out := make(map[string]any, len(public)+len(private))
	maps.Copy(out, public)
	maps.Copy(out, private)
	return out
}

// SecretString is the text the Tofu Controller writes to an output Secret
// for an output value: a string as it is, anything else as the JSON that
// `tofu output -json` prints for it (indented as it is nested there).
func SecretString(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// FromSecretData decodes a Secret's data as the Tofu Controller does for
// readInputsFromSecrets: a key with a "<key>__type" companion is decoded to
// that type (numbers as float64, lists, sets and tuples as []any, maps and
// objects as map[string]any), every other key is a string, and the
// companions themselves are left out.
func FromSecretData(data map[string]string) (map[string]any, error) {
	keys := make([]string, 0, len(data))
	for k := range data {
		if !strings.HasSuffix(k, TypeSuffix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		typ, typed := data[k+TypeSuffix]
		if !typed {
			out[k] = data[k]
			continue
		}
		ty, err := ctyjson.UnmarshalType([]byte(typ))
		if err != nil {
			return nil, fmt.Errorf("key %s: %s is not a type: %w", k, k+TypeSuffix, err)
		}
		v, err := ctyjson.Unmarshal([]byte(data[k]), ty)
		if err != nil {
			return nil, fmt.Errorf("key %s: not a %s: %w", k, ty.FriendlyName(), err)
		}
		out[k] = goValue(v)
	}
	return out, nil
}

// goValue is a cty value as plain Go: string, float64, bool, nil, []any,
// map[string]any.
func goValue(v cty.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString()
	case ty == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		return f
	case ty == cty.Bool:
		return v.True()
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, goValue(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			out[k.AsString()] = goValue(e)
		}
		return out
	}
	return nil
}

// Rename parses a varsKeys or writeOutputsToSecret.outputs entry: "key",
// or "old:new" to hand key old over under the name new.
func Rename(pattern string) (from, to string, err error) {
	if !strings.Contains(pattern, ":") {
		if pattern == "" {
			return "", "", fmt.Errorf("an empty key")
		}
		return pattern, pattern, nil
	}
	parts := strings.Split(pattern, ":")
	switch {
	case len(parts) != 2:
		return "", "", fmt.Errorf("%q has more than one colon; write old:new", pattern)
	case parts[0] == "":
		return "", "", fmt.Errorf("%q has no old name before the colon; write old:new", pattern)
	case parts[1] == "":
		return "", "", fmt.Errorf("%q has no new name after the colon; write old:new", pattern)
	}
	return parts[0], parts[1], nil
}
