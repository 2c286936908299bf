package diag

import (
	"fmt"
	"slices"
)

// MissingInput is the problem of a stack or Kustomization that needs a
// ConfigMap or Secret that neither the repository nor the inputs hold:
// what needs it waits (CodeInputMissing). field names what reads it, and
// keys the keys it reads, if only some.
func MissingInput(file, object, field, kind, namespace, name string, keys ...string) Problem {
	p := MissingInputOr(file, object, field, kind, namespace, name, "mark the entry optional: true")
	if len(keys) > 0 {
		p.Input.Keys = slices.Clone(keys)
	}
	return p
}

// MissingInputOr is MissingInput whose fix ends with another way out
// than an optional entry: or, as "remove spec.secretRef from FILE".
func MissingInputOr(file, object, field, kind, namespace, name, or string) Problem {
	return Problem{
		File:    file,
		Object:  object,
		Message: fmt.Sprintf("waiting for input %s/%s/%s (%s): it is not in the repository; give it with --inputs or --kubeconfig", kind, namespace, name, field),
		Fix:     fmt.Sprintf("pass --inputs DIR with a manifest of %s %s in namespace %s (plain or SOPS-encrypted), or --kubeconfig to read it from the cluster; or add it to the repository, or %s", kind, name, namespace, or),
		Code:    CodeInputMissing,
		Input:   &Input{Kind: kind, Namespace: namespace, Name: name},
	}
}
