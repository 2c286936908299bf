package flux

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fluxcd/pkg/envsubst"
	sigsyaml "sigs.k8s.io/yaml"
)

// substituteScalars is Flux's postBuild substitution of one object
// without its YAML round trip, for the objects where the two give the
// same result. kustomize-controller writes the object as YAML
// (sigs.k8s.io/yaml, from its JSON), runs envsubst over the text, and
// reads the text back; substituteScalars runs envsubst over each string
// that holds a "$" on its own instead, which gives the same object when:
//   - the YAML writes that string as it is (a plain scalar on one line),
//     each "${" closed within it, and envsubst's result reads back as the
//     same string;
//   - no key holds a "$", and no mapping is wider than elideKeys (those
//     take the reader that leaves wide mappings out);
//   - every number survives JSON as it is: integers within 2^53, and
//     floats that are not whole and print without an exponent;
//   - substitution is not disabled on the object (label or annotation).
//
// Strings without a "$", booleans and nulls come through the round trip
// unchanged. ok is false when the object is not one of these, or
// envsubst fails (a variable missing in strict mode): the caller then
// takes Flux's own way, which also words the problem. held reports
// whether a string held a variable (${…}).
func substituteScalars(obj map[string]any, vars map[string]string, strict bool) (out map[string]any, held, ok bool) {
	if substitutionDisabled(obj) {
		return nil, false, false
	}
	lookup := func(name string) (string, bool) {
		v, found := vars[name]
		if strict {
			return v, found
		}
		return v, true
	}
	s := scalarSubstitution{lookup: lookup}
	v, _, ok := s.value(obj)
	if !ok {
		return nil, false, false
	}
	return v.(map[string]any), s.held, true
}

// scalarSubstitution is one object's substituteScalars.
type scalarSubstitution struct {
	lookup func(string) (string, bool)
	held   bool
}

// value substitutes v, and reports whether it changed; containers are
// copied only when something under them changed.
func (s *scalarSubstitution) value(v any) (any, bool, bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > elideKeys {
			return nil, false, false
		}
		var out map[string]any
		for k, e := range x {
			if strings.Contains(k, "$") || !yamlPrintable(k) {
				return nil, false, false
			}
			ne, changed, ok := s.value(e)
			if !ok {
				return nil, false, false
			}
			if changed {
				if out == nil {
					out = make(map[string]any, len(x))
					for k2, e2 := range x {
						out[k2] = e2
					}
				}
				out[k] = ne
			}
		}
		if out == nil {
			return x, false, true
		}
		return out, true, true
	case []any:
		var out []any
		for i, e := range x {
			ne, changed, ok := s.value(e)
			if !ok {
				return nil, false, false
			}
			if changed {
				if out == nil {
					out = append([]any(nil), x...)
				}
				out[i] = ne
			}
		}
		if out == nil {
			return x, false, true
		}
		return out, true, true
	case string:
		if !yamlPrintable(x) {
			return nil, false, false
		}
		if !strings.Contains(x, "$") {
			return x, false, true
		}
		if strings.Contains(x, "${") {
			s.held = true
		}
		r, ok := s.substitute(x)
		return r, r != x, ok
	case bool, nil:
		return x, false, true
	case int:
		return x, false, exactInJSON(int64(x))
	case int64:
		// Read back, an integer is an int.
		return int(x), true, exactInJSON(x)
	case float64:
		return x, false, floatSurvives(x)
	default:
		return nil, false, false
	}
}

// substitute runs envsubst over one string, when the YAML text holds it
// as it is and the result reads back as itself.
func (s *scalarSubstitution) substitute(in string) (string, bool) {
	if !closedBraces(in) || !writtenPlain(in) {
		return "", false
	}
	out, err := envsubst.Eval(in, s.lookup)
	if err != nil || !readsBackAs(out) {
		return "", false
	}
	return out, true
}

// closedBraces reports whether each "${" of s is closed within s, so
// that envsubst reads its variables from s alone, as from the whole text.
func closedBraces(s string) bool {
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return true
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return false
		}
		s = s[i+j+1:]
	}
}

// plainCache and readCache keep what sigs.k8s.io/yaml makes of a string:
// the same few strings come back in every object of a fleet.
var plainCache, readCache sync.Map

// writtenPlain reports whether sigs.k8s.io/yaml writes s as a mapping's
// value as it is, on one line: envsubst then sees s itself.
func writtenPlain(s string) bool {
	if plainWord(s) {
		return true
	}
	if v, ok := plainCache.Load(s); ok {
		return v.(bool)
	}
	b, err := sigsyaml.Marshal(map[string]string{"k": s})
	plain := err == nil && string(b) == "k: "+s+"\n"
	plainCache.Store(s, plain)
	return plain
}

// readsBackAs reports whether s, as a mapping's value in the YAML text,
// reads back (sigs.k8s.io/yaml, as kustomize-controller reads it) as the
// string s.
func readsBackAs(s string) bool {
	if strings.ContainsAny(s, "\n\r") {
		return false
	}
	if plainWord(s) {
		return true
	}
	if v, ok := readCache.Load(s); ok {
		return v.(bool)
	}
	same := false
	if j, err := sigsyaml.YAMLToJSON([]byte("k: " + s + "\n")); err == nil {
		var m map[string]any
		if json.Unmarshal(j, &m) == nil && len(m) == 1 {
			got, isString := m["k"].(string)
			same = isString && got == s
		}
	}
	readCache.Store(s, same)
	return same
}

// plainWord reports, without asking sigs.k8s.io/yaml, whether it writes
// s as it is and reads it back as the string s: a word of letters,
// digits, "_", ".", "-", "/", "$", "{" and "}" that starts with a letter,
// "_" or "$" (no indicator YAML's emitter quotes, no space it folds at,
// nothing its YAML 1.1 reader takes for a number or a timestamp) and is
// none of YAML 1.1's booleans and nulls. A fleet's substituted values
// ("stack-${environment}-${region}", "eu-west-1") are mostly such words,
// each of them different: asking the YAML library of each, and keeping
// its answer, was most of what substitution cost.
func plainWord(s string) bool {
	if s == "" || yaml11Words[s] {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$':
		case i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '-' || c == '/' || c == '{' || c == '}'):
		default:
			return false
		}
	}
	return true
}

// yaml11Words are the words YAML 1.1 (go-yaml v2, which sigs.k8s.io/yaml
// reads and writes with) reads as booleans or null.
var yaml11Words = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
	"null": true, "Null": true, "NULL": true,
}

// yamlPrintable reports whether YAML can hold s as it is: valid UTF-8 of
// the characters YAML's printable set has, which the round trip's reader
// requires (it refuses control characters).
func yamlPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return runesPrintable(s[i:])
		}
	}
	return true
}

// runesPrintable is yamlPrintable past ASCII.
func runesPrintable(s string) bool {
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return false
		case r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7e || r == 0x85:
		case r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd && r != 0xfeff, r >= 0x10000 && r <= 0x10ffff:
		default:
			return false
		}
	}
	return true
}

// exactInJSON reports whether an integer comes through JSON's float64
// as it is.
func exactInJSON(i int64) bool { return i >= -1<<53 && i <= 1<<53 }

// floatSurvives reports whether a float comes back a float of the same
// value: whole floats come back integers.
func floatSurvives(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f == math.Trunc(f) {
		return false
	}
	return !strings.ContainsAny(strconv.FormatFloat(f, 'g', -1, 64), "eE")
}

// substitutionDisabled reports whether an object is labelled or
// annotated kustomize.toolkit.fluxcd.io/substitute: disabled.
func substitutionDisabled(obj map[string]any) bool {
	md, _ := obj["metadata"].(map[string]any)
	for _, field := range []string{"labels", "annotations"} {
		if m, ok := md[field].(map[string]any); ok {
			if v, ok := m["kustomize.toolkit.fluxcd.io/substitute"].(string); ok && v == "disabled" {
				return true
			}
		}
	}
	return false
}
