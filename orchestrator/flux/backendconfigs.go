package flux

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
// Secret is checked once every stack is known (checkBackendSecrets):
// strata reads backend settings from the repository or the inputs, never
// from another stack's outputs.
func (l *loader) backendConfigs(b *built) []environment.BackendConfig {
	tf := b.tf
	var out []environment.BackendConfig
	for i, ref := range tf.Spec.BackendConfigsFrom {
		field := fmt.Sprintf("spec.backendConfigsFrom[%d]", i)
		bad := func(msg, fix string) {
			l.problem(diag.Problem{File: tf.File, Object: tf.ref(), Message: field + " " + msg, Fix: fix})
		}
		if ref.Name == "" {
			bad("has no name", fmt.Sprintf("name the ConfigMap or Secret of the backend's settings in %s", tf.File))
			continue
		}
		var data map[string]string
		var file string
		switch ref.Kind {
		case kindConfigMap:
			cm := l.configMap(b.k.Group, ref.Name)
			if cm == nil {
				if !ref.Optional {
					ns := namespaceOf(&tf.object)
					l.missing(missingInput(tf.File, tf.ref(), field, kindConfigMap, ns, ref.Name, ref.Keys...), kindConfigMap, ns, ref.Name)
				}
				continue
			}
			data, file = cm.Data, cm.File
		case kindSecret:
			sec := l.secret(b.k.Group, ref.Name)
			if sec == nil {
				if ref.Optional {
					// The Tofu Controller hands each key of a missing
					// optional Secret over empty.
					for _, k := range ref.Keys {
						out = append(out, environment.BackendConfig{Key: k, Source: fmt.Sprintf("Secret %s (optional, missing)", ref.Name)})
					}
				} else {
					b.backendSecrets = append(b.backendSecrets, missingRef{field: field, name: ref.Name, keys: ref.Keys})
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
			case ref.Optional && ref.Kind == kindSecret:
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

// missingRef is a reference to a Secret the repository does not hold.
type missingRef struct {
	field, name string
	keys        []string
}

// checkBackendSecrets reports each non-optional spec.backendConfigsFrom
// Secret of the stack that the repository does not hold; writers maps
// the Secrets the environment's stacks write (writeOutputsToSecret.name)
// to the stack that writes each.
func (l *loader) checkBackendSecrets(b *built, writers map[string]string) {
	for _, m := range b.backendSecrets {
		if w, ok := writers[m.name]; ok {
			l.problem(diag.Problem{
				File:    b.tf.File,
				Object:  b.tf.ref(),
				Message: fmt.Sprintf("%s names Secret %q, which stack %s writes: strata reads backend settings from the repository, not from another stack's outputs", m.field, m.name, w),
				Fix:     fmt.Sprintf("put the backend's settings in a Secret or ConfigMap of %s, or write them in spec.backendConfig.customConfiguration of %s", l.scopeDirs(b.k.Group), b.tf.File),
			})
			continue
		}
		// Like any ConfigMap or Secret that lives in the cluster: the
		// stack waits until it is given.
		ns := namespaceOf(&b.tf.object)
		l.missing(missingInput(b.tf.File, b.tf.ref(), m.field, kindSecret, ns, m.name, m.keys...), kindSecret, ns, m.name)
	}
}
