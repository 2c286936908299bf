package diag

import (
	"fmt"
	"slices"
	"strings"
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
		Message: fmt.Sprintf("waiting for input %s/%s/%s (%s): %s", kind, namespace, name, field, notInRepository),
		Fix:     fmt.Sprintf("pass --inputs DIR with a manifest of %s %s in namespace %s (plain or SOPS-encrypted), or --kubeconfig to read it from the cluster%s%s", kind, name, namespace, orInRepository, or),
		Code:    CodeInputMissing,
		Input:   &Input{Kind: kind, Namespace: namespace, Name: name},
	}
}

// What MissingInputOr says of an input missing from a repository, which
// InCluster rewords.
const (
	notInRepository = "it is not in the repository; give it with --inputs or --kubeconfig"
	orInRepository  = "; or add it to the repository, or "
)

// InCluster rewords a problem of MissingInput for an environment read
// from a cluster's namespace, where the input is looked for in the
// cluster itself: it does not exist there, and no flag can give it. Any
// other problem is returned as it is.
func (p Problem) InCluster() Problem {
	in := p.Input
	if p.Code != CodeInputMissing || in == nil || !strings.Contains(p.Message, notInRepository) {
		return p
	}
	p.Message = strings.Replace(p.Message, notInRepository, fmt.Sprintf("%s %s not found in namespace %s", in.Kind, in.Name, in.Namespace), 1)
	p.Message = strings.Replace(p.Message, "waiting for input", "input", 1)
	fix := fmt.Sprintf("create %s %s in namespace %s", in.Kind, in.Name, in.Namespace)
	if _, or, ok := strings.Cut(p.Fix, orInRepository); ok {
		fix += ", or " + or
	}
	p.Fix = fix
	return p
}
