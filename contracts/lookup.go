package contracts

import (
	"strconv"
	"strings"
	"time"
)

// Lookup returns the value at a dotted property path in the document's
// JSON, the way External Secrets resolves remoteRef.property:
// "private.database.endpoint", "public.subnets.0", "version". A dot inside
// a key is written "\.". It returns false when the path leads nowhere.
// The value is a copy.
func (d Document) Lookup(property string) (any, bool) {
	if property == "" {
		return nil, false
	}
	var cur any = map[string]any{
		"installed": d.Installed,
		"version":   d.Version,
		"stack":     d.Stack,
		"updatedAt": d.UpdatedAt.Format(time.RFC3339Nano),
		"public":    d.Public,
		"private":   d.Private,
	}
	for _, seg := range splitPath(property) {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[seg]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return deepCopy(cur), true
}

// splitPath splits a property path on dots that are not escaped as "\.".
func splitPath(path string) []string {
	var (
		segs []string
		b    strings.Builder
	)
	for i := 0; i < len(path); i++ {
		switch {
		case path[i] == '\\' && i+1 < len(path) && path[i+1] == '.':
			b.WriteByte('.')
			i++
		case path[i] == '.':
			segs = append(segs, b.String())
			b.Reset()
		default:
			b.WriteByte(path[i])
		}
	}
	return append(segs, b.String())
}
