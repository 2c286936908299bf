package contracts

// deepCopy copies a JSON-decoded value so that changing the copy never
// changes the original. Other values are returned as they are.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return copyMap(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}

// copyMap deep-copies m; a nil map becomes an empty one.
func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = deepCopy(v)
	}
	return out
}
