package tofucontroller

import (
	"fmt"
	"maps"
	"slices"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// backendConfigs resolves spec.backendConfigsFrom as the Tofu Controller's
// runner does before init: each entry's ConfigMap or Secret, every key of
// it (sorted) or those of keys, each as -backend-config=key=value, later
// entries winning. An optional entry that names nothing gives nothing but
// what the Tofu Controller gives: each of its keys empty, for a Secret.
// With a difference, as for varsFrom: a key missing from a non-optional
// entry is a problem, where the Tofu Controller passes a Secret's empty.
//
// A ConfigMap or Secret that neither the repository nor the inputs hold
// makes the stack wait for it, as every reference to the cluster does; a
// Secret is checked once every stack is known (BackendSecret):
// strata reads backend settings from the repository or the inputs, never
// from another stack's outputs.
func (b *builder) backendConfigs() []environment.BackendConfig {
	tf := b.tf
	var out []environment.BackendConfig
	for i, ref := range tf.Spec.BackendConfigsFrom {
		field := fmt.Sprintf("spec.backendConfigsFrom[%d]", i)
		bad := func(msg, fix string) {
			b.problem(field+" "+msg, fix)
		}
		if ref.Name == "" {
			bad("has no name", fmt.Sprintf("name the ConfigMap or Secret of the backend's settings in %s", tf.File))
			continue
		}
		var data map[string]string
		var file string
		switch ref.Kind {
		case KindConfigMap:
			cm := b.r.ConfigMap(ref.Name)
			if cm == nil {
				if !ref.Optional {
					ns := tf.Namespace
					b.r.Missing(diag.MissingInput(tf.File, tf.ref(), field, KindConfigMap, ns, ref.Name, ref.Keys...))
				}
				continue
			}
			data, file = cm.Data, cm.File
		case KindSecret:
			sec := b.r.Secret(ref.Name)
			if sec == nil {
				if ref.Optional {
					// The Tofu Controller hands each key of a missing
					// optional Secret over empty.
					for _, k := range ref.Keys {
						out = append(out, environment.BackendConfig{Key: k, Source: fmt.Sprintf("Secret %s (optional, missing)", ref.Name)})
					}
				} else {
					b.backendSecrets = append(b.backendSecrets, BackendSecret{Field: field, Name: ref.Name, Keys: ref.Keys})
				}
				continue
			}
			if sec.Failed {
				continue // a problem says why it could not be read
			}
			data, file = sec.Data, sec.File
		default:
			bad(fmt.Sprintf("(%s) is of kind %q; the Tofu Controller reads ConfigMap and Secret", ref.Name, ref.Kind),
				fmt.Sprintf("set the entry's kind to ConfigMap or Secret in %s", tf.File))
			continue
		}
		keys := ref.Keys
		if keys == nil {
			keys = slices.Sorted(maps.Keys(data))
		}
		for _, k := range keys {
			v, ok := data[k]
			switch {
			case ok:
			case ref.Optional && ref.Kind == KindSecret:
				// The Tofu Controller hands a missing Secret key over empty.
			case ref.Optional:
				continue
			default:
				bad(fmt.Sprintf("names key %q of %s %s, which has no such key", k, ref.Kind, ref.Name),
					fmt.Sprintf("add %s to %s %s in %s, or remove it from keys", k, ref.Kind, ref.Name, file))
				continue
			}
			out = append(out, environment.BackendConfig{Key: k, Source: fmt.Sprintf("%s %s key %s", ref.Kind, ref.Name, k), Value: v})
		}
	}
	return out
}

// BackendSecret is a spec.backendConfigsFrom Secret that neither the
// repository nor the inputs hold, which the stack does not mark optional.
// The render checks each once every stack is known: another stack's
// output Secret is a problem (strata reads backend settings from the
// repository or the inputs), any other a Secret to wait for.
type BackendSecret struct {
	// Field is the entry, as spec.backendConfigsFrom[i]; Name the
	// Secret's; Keys those the entry reads, nil for all.
	Field, Name string
	Keys        []string
}
