package environment

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// varName is the form Flux requires of a substitution variable's name.
var varName = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`)

// ValidVarName reports whether name may be used as a postBuild
// substitution variable.
func ValidVarName(name string) bool { return varName.MatchString(name) }

// Substitute applies Flux's postBuild variable substitution to text:
//
//   - ${name} is replaced by the variable's value;
//   - ${name:=default} and ${name:-default} by the value, or default when
//     the variable is undefined or empty;
//   - $${ is an escape and becomes a literal ${, so $${name} stays ${name};
//   - anything else, including $name and ${…} that is not one of the
//     forms above, is left as it is.
//
// Names match [_a-zA-Z][_a-zA-Z0-9]*. A variable that is undefined and has
// no default is left in the text unreplaced, and its name is returned in
// missing (in order of first use, without duplicates).
func Substitute(text string, vars map[string]string) (out string, missing []string) {
	if !strings.Contains(text, "$") {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	seen := map[string]bool{}
	// closeAt caches the index of the next "}", so that text full of "${"
	// is still read in linear time.
	closeAt := -1
	i := 0
	for i < len(text) {
		j := strings.IndexByte(text[i:], '$')
		if j < 0 {
			b.WriteString(text[i:])
			break
		}
		j += i
		b.WriteString(text[i:j])
		rest := text[j:]
		if strings.HasPrefix(rest, "$${") {
			b.WriteString("${")
			i = j + 3
			continue
		}
		if !strings.HasPrefix(rest, "${") {
			b.WriteByte('$')
			i = j + 1
			continue
		}
		if closeAt < j {
			closeAt = len(text)
			if k := strings.IndexByte(rest, '}'); k >= 0 {
				closeAt = j + k
			}
		}
		if closeAt == len(text) {
			// No reference can end any more; only escapes are left.
			b.WriteString(strings.ReplaceAll(rest, "$${", "${"))
			break
		}
		end := closeAt - j
		name, def, hasDef, ok := parseReference(rest[2:end])
		if !ok {
			b.WriteByte('$')
			i = j + 1
			continue
		}
		v, defined := vars[name]
		switch {
		case defined && (v != "" || !hasDef):
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			b.WriteString(rest[:end+1])
			if !seen[name] {
				seen[name] = true
				missing = append(missing, name)
			}
		}
		i = j + end + 1
	}
	return b.String(), missing
}

// parseReference parses the inside of ${…}: name, name:=default or
// name:-default.
func parseReference(expr string) (name, def string, hasDef, ok bool) {
	name = expr
	if k := strings.Index(expr, ":"); k >= 0 {
		op := expr[k:]
		if !strings.HasPrefix(op, ":=") && !strings.HasPrefix(op, ":-") {
			return "", "", false, false
		}
		name, def, hasDef = expr[:k], op[2:], true
	}
	if !varName.MatchString(name) {
		return "", "", false, false
	}
	return name, def, hasDef, true
}

// substitutionVars collects the variables of a Kustomization's postBuild:
// the substituteFrom ConfigMaps in order (later ones win), then the
// substitute entries, which win over all of them. As Flux does, newlines
// are removed from the values.
func (l *loader) substitutionVars(k *kustomization) map[string]string {
	vars := map[string]string{}
	pb := k.Spec.PostBuild
	if pb == nil {
		return vars
	}
	for _, ref := range pb.SubstituteFrom {
		switch ref.Kind {
		case kindConfigMap:
			cm := l.configMap(k.Group, ref.Name)
			if cm == nil {
				if !ref.Optional {
					l.problem(diag.Problem{
						File:    k.File,
						Object:  k.ref(),
						Message: fmt.Sprintf("postBuild.substituteFrom names ConfigMap %q, which does not exist", ref.Name),
						Fix:     fmt.Sprintf("create ConfigMap %s in %s, or mark the entry optional: true", ref.Name, l.scopeDirs(k.Group)),
					})
				}
				continue
			}
			for name, v := range cm.Data {
				if !ValidVarName(name) {
					l.problem(diag.Problem{
						File:    cm.File,
						Object:  cm.ref(),
						Message: fmt.Sprintf("key %q is not a valid substitution variable name, and the ConfigMap is used in postBuild.substituteFrom", name),
						Fix:     fmt.Sprintf("rename the key to match [_a-zA-Z][_a-zA-Z0-9]*, e.g. %q", validName(name)),
					})
					continue
				}
				vars[name] = strings.ReplaceAll(v, "\n", "")
			}
		case kindSecret:
			if !ref.Optional {
				l.problem(diag.Problem{
					File:    k.File,
					Object:  k.ref(),
					Message: "postBuild.substituteFrom of kind Secret is not supported; use a ConfigMap",
					Fix:     fmt.Sprintf("move the values of Secret %s into a ConfigMap and list that ConfigMap instead", ref.Name),
				})
			}
		default:
			l.problem(diag.Problem{
				File:    k.File,
				Object:  k.ref(),
				Message: fmt.Sprintf("postBuild.substituteFrom entry %q is of kind %q; only ConfigMap is supported", ref.Name, ref.Kind),
				Fix:     "set the substituteFrom entry's kind to ConfigMap",
			})
		}
	}
	for name, v := range pb.Substitute {
		if !ValidVarName(name) {
			l.problem(diag.Problem{
				File:    k.File,
				Object:  k.ref(),
				Message: fmt.Sprintf("postBuild.substitute has the variable %q, whose name is not valid", name),
				Fix:     fmt.Sprintf("rename it to match [_a-zA-Z][_a-zA-Z0-9]*, e.g. %q", validName(name)),
			})
			continue
		}
		vars[name] = strings.ReplaceAll(v, "\n", "")
	}
	return vars
}

// validName suggests a valid variable name for name.
func validName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// substituteDocument applies a Kustomization's variables to one document of
// a file under its spec.path, unless the object turns substitution off with
// the annotation kustomize.toolkit.fluxcd.io/substitute: disabled. Each
// variable that is missing is a problem.
func (l *loader) substituteDocument(k *kustomization, file string, doc document, vars map[string]string) document {
	m, content, ok := peekMeta(doc)
	if ok && m.Metadata.Annotations[annotationSubstitute] == "disabled" {
		return doc
	}
	out, missing := Substitute(doc.Text, vars)
	if ok {
		// Flux substitutes the built manifests, which have lost their
		// comments: a reference in a comment is no missing variable.
		missing = slices.DeleteFunc(missing, func(name string) bool {
			return !bytes.Contains(content, []byte("${"+name))
		})
	}
	if len(missing) == 0 {
		return document{Text: out, Line: doc.Line}
	}
	object := ""
	if ok && m.Kind != "" && m.Metadata.Name != "" {
		object = m.ref()
	}
	target := "ConfigMap " + InitConfigMap + " (and list it in postBuild.substituteFrom)"
	if pb := k.Spec.PostBuild; pb != nil {
		first := true
		for _, ref := range pb.SubstituteFrom {
			if ref.Kind == kindConfigMap && (first || ref.Name == InitConfigMap) {
				target, first = "ConfigMap "+ref.Name, false
			}
		}
	}
	for _, name := range missing {
		l.problem(diag.Problem{
			File:    file,
			Object:  object,
			Message: fmt.Sprintf("variable %q is not defined", name),
			Fix: fmt.Sprintf("add it to postBuild.substitute of Kustomization %s in %s or to %s, or give a default with ${%s:=value}",
				k.Name(), k.File, target, name),
		})
	}
	return document{Text: out, Line: doc.Line}
}
