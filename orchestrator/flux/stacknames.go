package flux

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofucontroller"
)

// names keys the environment's Terraform objects and the Secrets they
// write by namespace and name, as Flux and the Tofu Controller key them,
// and names their stacks and contracts: by the name alone when no other
// namespace of the environment uses it, else namespace_name
// (environment.Qualified), so that two of one name keep apart their
// state, records and contracts.
type names struct {
	// stacks and written list the namespaces of each Terraform object's
	// name and of each Secret name that a stack writes
	// (writeOutputsToSecret), sorted, without duplicates.
	stacks, written map[string][]string
	// pinned are the stacks the strata.dev/stack annotation names, by
	// the object's namespace/name.
	pinned map[string]string
}

// newNames reads the Terraform objects that become stacks.
func newNames(tfs []*terraform) names {
	n := names{stacks: map[string][]string{}, written: map[string][]string{}, pinned: map[string]string{}}
	add := func(m map[string][]string, name, ns string) {
		if i, found := slices.BinarySearch(m[name], ns); !found {
			m[name] = slices.Insert(m[name], i, ns)
		}
	}
	for _, tf := range tfs {
		ns := namespaceOf(&tf.object)
		add(n.stacks, tf.Name(), ns)
		if v := tf.Metadata.Annotations[environment.AnnotationStack]; v != "" && validStackName(v) {
			n.pinned[ns+"/"+tf.Name()] = v
		}
		if w := tf.refs.writeOutputsToSecret; w != nil && w.Name != "" {
			add(n.written, w.Name, ns)
		}
	}
	return n
}

// stack names the stack of Terraform object ns/name: as its
// strata.dev/stack annotation says, else by the name alone unless
// another namespace has an object of that name.
func (n names) stack(ns, name string) string {
	if v, ok := n.pinned[ns+"/"+name]; ok {
		return v
	}
	if len(n.stacks[name]) > 1 {
		return environment.Qualified(ns, name)
	}
	return name
}

// dependency names the stack of tf's spec.dependsOn entry d, whose
// namespace is tf's unless it names one.
func (n names) dependency(tf *terraform, d tofucontroller.NamedRef) string {
	return n.stack(cmp.Or(d.Namespace, namespaceOf(&tf.object)), d.Name)
}

// contract names the contract a stack of namespace ns reads or writes as
// the Secret name: the Secret of its own namespace when a stack there
// writes one, else the one Secret of that name a stack writes (strata's
// contracts are the environment's, whatever the reader's namespace). A
// name written in more than one namespace, none of them ns, is left as
// it is: no contract has that name, and the reader's check says so.
func (n names) contract(ns, name string) string {
	in := n.written[name]
	if len(in) < 2 {
		return name
	}
	if slices.Contains(in, ns) {
		return environment.Qualified(ns, name)
	}
	return name
}

// isWritten reports whether a stack of any namespace writes a Secret of
// that name.
func (n names) isWritten(name string) bool { return len(n.written[name]) > 0 }

// validStackName reports whether name may name a stack: a Kubernetes
// object name, or one qualified by a namespace (environment.Qualified).
func validStackName(name string) bool {
	ns, bare, qualified := strings.Cut(name, environment.NamespaceSeparator)
	if !qualified {
		return len(validation.IsDNS1123Subdomain(name)) == 0
	}
	return len(validation.IsDNS1123Label(ns)) == 0 && len(validation.IsDNS1123Subdomain(bare)) == 0
}

// notes says which names two namespaces share, and what strata names
// their stacks and contracts: in validate -v, as nothing is wrong.
func (n names) notes() []string {
	var out []string
	for _, kind := range []struct {
		m    map[string][]string
		name func(ns, name string) string
		what string
	}{{n.stacks, n.stack, "Terraform objects named %s are in namespaces %s: their stacks are %s (annotation " + environment.AnnotationStack + " names one otherwise)"},
		{n.written, n.contract, "stacks of namespaces %[2]s write a Secret %[1]s: their contracts are %[3]s, the names readers outside the environment (External Secrets) read (annotation " + environment.AnnotationContract + " names one otherwise)"}} {
		for _, name := range slices.Sorted(maps.Keys(kind.m)) {
			nss := kind.m[name]
			if len(nss) < 2 {
				continue
			}
			qualified := make([]string, len(nss))
			for i, ns := range nss {
				qualified[i] = kind.name(ns, name)
			}
			out = append(out, fmt.Sprintf(kind.what, name, strings.Join(nss, ", "), strings.Join(qualified, ", ")))
		}
	}
	return out
}
