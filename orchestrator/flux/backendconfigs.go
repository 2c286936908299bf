package flux

import (
	"fmt"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// checkBackendSecrets reports each non-optional spec.backendConfigsFrom
// Secret of the stack that the repository does not hold; writers maps
// the Secrets the environment's stacks write (writeOutputsToSecret.name)
// to the stack that writes each.
func (l *loader) checkBackendSecrets(b *built, writers map[string]string) {
	for _, m := range b.backendSecrets {
		if w, ok := writers[m.Name]; ok {
			l.problem(diag.Problem{
				File:    b.tf.File,
				Object:  b.tf.ref(),
				Message: fmt.Sprintf("%s names Secret %q, which stack %s writes: strata reads backend settings from the repository, not from another stack's outputs", m.Field, m.Name, w),
				Fix:     fmt.Sprintf("put the backend's settings in a Secret or ConfigMap of %s, or write them in spec.backendConfig.customConfiguration of %s", l.scopeDirs(b.k.Group), b.tf.File),
			})
			continue
		}
		// Like any ConfigMap or Secret that lives in the cluster: the
		// stack waits until it is given.
		ns := namespaceOf(&b.tf.object)
		l.missing(diag.MissingInput(b.tf.File, b.tf.ref(), m.Field, kindSecret, ns, m.Name, m.Keys...), kindSecret, ns, m.Name)
	}
}
