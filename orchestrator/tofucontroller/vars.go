package tofucontroller

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// varLayer is one entry of spec.vars or spec.varsFrom: variables known
// now, or a reference to another stack's output Secret.
type varLayer struct {
	static   map[string]any
	contract *environment.ContractVars
}

// stackVars computes the stack's input variables as the Tofu Controller
// does: spec.vars in order, then spec.varsFrom in order, later entries
// winning. Entries that read another stack's output Secret become
// ContractVars, resolved when the stack runs.
func (b *builder) stackVars() {
	tf, s := b.tf, b.stack
	var layers []varLayer
	for i, v := range tf.Spec.Vars {
		if v.Name == "" {
			continue
		}
		field := fmt.Sprintf("spec.vars[%d]", i)
		if v.ValueFrom != nil {
			if len(v.Value) > 0 {
				b.problem(fmt.Sprintf("%s (%s) sets both value and valueFrom", field, v.Name),
					fmt.Sprintf("keep one of value and valueFrom for %s in %s", v.Name, tf.File))
				continue
			}
			if layer, ok := b.valueFrom(field, v.Name, v.ValueFrom); ok {
				layers = append(layers, layer)
			}
			continue
		}
		var value any
		if len(v.Value) > 0 {
			// The value came out of the YAML decoder as JSON.
			_ = json.Unmarshal(v.Value, &value)
		}
		layers = append(layers, varLayer{static: map[string]any{v.Name: value}})
	}
	for i, vf := range tf.Spec.VarsFrom {
		if layer, ok := b.varsFrom(fmt.Sprintf("spec.varsFrom[%d]", i), vf); ok {
			layers = append(layers, layer)
		}
	}
	vars := map[string]any{}
	for i, layer := range layers {
		if layer.static != nil {
			maps.Copy(vars, layer.static)
			continue
		}
		cv := *layer.contract
		keep := map[string]bool{}
		for _, later := range layers[i+1:] {
			for k := range later.static {
				keep[k] = true
			}
		}
		if len(keep) > 0 {
			cv.Keep = slices.Sorted(maps.Keys(keep))
		}
		s.ContractVars = append(s.ContractVars, cv)
	}
	if len(vars) > 0 {
		s.Vars = vars
	}
}

// renames parses varsKeys; nil means every key.
func (b *builder) renames(field string, keys []string) ([]environment.KeyRename, bool) {
	if keys == nil {
		return nil, true
	}
	tf := b.tf
	out := make([]environment.KeyRename, 0, len(keys))
	ok := true
	for _, k := range keys {
		from, to, err := tcdata.Rename(k)
		if err != nil {
			ok = false
			b.problem(fmt.Sprintf("%s.varsKeys: %v", field, err),
				fmt.Sprintf("write each key as key or old:new in %s", tf.File))
			continue
		}
		out = append(out, environment.KeyRename{From: from, To: to})
	}
	return out, ok
}

// varsFrom returns the variables of one spec.varsFrom entry: a ConfigMap
// or a Secret of the repository, read now, or another stack's output
// Secret, read when the stack runs.
func (b *builder) varsFrom(field string, vf VarsRef) (varLayer, bool) {
	tf := b.tf
	keys, ok := b.renames(field, vf.VarsKeys)
	if !ok {
		return varLayer{}, false
	}
	var data map[string]string
	var file string
	switch vf.Kind {
	case KindConfigMap:
		cm := b.r.ConfigMap(vf.Name)
		if cm == nil {
			if !vf.Optional {
				b.r.Missing(diag.MissingInput(tf.File, tf.ref(), field, KindConfigMap, tf.Namespace, vf.Name, RenamedFrom(keys)...))
			}
			return varLayer{}, false
		}
		data, file = cm.Data, cm.File
		b.r.Unset(cm, field)
	case KindSecret:
		sec := b.r.Secret(vf.Name)
		if sec == nil {
			// Another stack's output Secret: checked once every stack
			// is known, read when the stack runs.
			return varLayer{contract: &environment.ContractVars{Contract: vf.Name, Field: field, Keys: keys, Optional: vf.Optional}}, true
		}
		data, file = sec.Data, sec.File
		b.r.Unset(sec, field)
	default:
		b.problem(fmt.Sprintf("%s (%s) is of kind %q; the Tofu Controller reads ConfigMap and Secret", field, vf.Name, vf.Kind),
			"set the varsFrom entry's kind to ConfigMap or Secret")
		return varLayer{}, false
	}
	vars := map[string]any{}
	if keys == nil {
		for k, v := range data {
			vars[k] = v
		}
		return varLayer{static: vars}, true
	}
	for _, k := range keys {
		v, ok := data[k.From]
		switch {
		case ok:
			vars[k.To] = v
		case vf.Kind == KindSecret && vf.Optional:
			// The Tofu Controller hands a missing Secret key over empty.
			vars[k.To] = ""
		case !vf.Optional:
			b.missingKey(field, k.From, vf.Kind, vf.Name, file, "remove it from varsKeys")
		}
	}
	return varLayer{static: vars}, true
}

// valueFrom returns the variable of one spec.vars[].valueFrom: a key of a
// ConfigMap or Secret of the repository, read now, or of another stack's
// output Secret, read when the stack runs. An optional reference to
// something missing sets nothing.
func (b *builder) valueFrom(field, name string, vf *ValueFrom) (varLayer, bool) {
	tf := b.tf
	field += ".valueFrom"
	var ref *KeyRef
	var kind string
	switch {
	case vf.SecretKeyRef != nil && vf.ConfigMapKeyRef == nil:
		ref, kind = vf.SecretKeyRef, KindSecret
	case vf.ConfigMapKeyRef != nil && vf.SecretKeyRef == nil:
		ref, kind = vf.ConfigMapKeyRef, KindConfigMap
	default:
		b.problem(fmt.Sprintf("%s (%s) must name exactly one secretKeyRef or configMapKeyRef: strata runs no pod, so fieldRef and resourceFieldRef have nothing to read", field, name),
			fmt.Sprintf("use secretKeyRef or configMapKeyRef for %s in %s", name, tf.File))
		return varLayer{}, false
	}
	if ref.Name == "" || ref.Key == "" {
		b.problem(fmt.Sprintf("%s (%s) needs both name and key", field, name),
			fmt.Sprintf("set the name and key of %s's %s in %s", name, kind, tf.File))
		return varLayer{}, false
	}
	var data map[string]string
	var file string
	if kind == KindSecret {
		sec := b.r.Secret(ref.Name)
		if sec == nil {
			return varLayer{contract: &environment.ContractVars{
				Contract: ref.Name, Field: field, Keys: []environment.KeyRename{{From: ref.Key, To: name}},
				Optional: ref.Optional, ValueFrom: true,
			}}, true
		}
		data, file = sec.Data, sec.File
	} else {
		cm := b.r.ConfigMap(ref.Name)
		if cm == nil {
			if !ref.Optional {
				b.r.Missing(diag.MissingInput(tf.File, tf.ref(), field+" of "+name, KindConfigMap, tf.Namespace, ref.Name, ref.Key))
			}
			return varLayer{}, false
		}
		data, file = cm.Data, cm.File
	}
	v, ok := data[ref.Key]
	if !ok {
		if !ref.Optional {
			b.missingKey(fmt.Sprintf("%s (%s)", field, name), ref.Key, kind, ref.Name, file, "mark the reference optional: true")
		}
		return varLayer{}, false
	}
	return varLayer{static: map[string]any{name: v}}, true
}

// RenamedFrom returns the keys that renames read: each one's From.
func RenamedFrom(rs []environment.KeyRename) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.From)
	}
	return out
}

// missingKey is the problem of a reference, at field, to a key that its
// ConfigMap or Secret (kind name, in file) does not hold; orElse is the
// other fix.
func (b *builder) missingKey(field, key, kind, name, file, orElse string) {
	b.problem(fmt.Sprintf("%s names key %q of %s %s, which has no such key", field, key, kind, name),
		fmt.Sprintf("add %s to %s %s in %s, or %s", key, kind, name, file, orElse))
}
