package contracts

// Redaction replaces every private value in a Redacted document.
const Redaction = "(sensitive)"

// Redacted returns a copy of d whose private values are all replaced by
// Redaction. Objects and lists keep their keys and lengths, so the shape
// of the private data stays visible; no value does. Use it for anything
// that is logged or served.
func (d Document) Redacted() Document {
	out := d
	out.Public = copyMap(d.Public)
	out.Private = redactMap(d.Private)
	return out
}

func redactMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = redact(v)
	}
	return out
}

func redact(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return redactMap(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redact(e)
		}
		return out
	default:
		return Redaction
	}
}
