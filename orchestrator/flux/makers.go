package flux

import (
	"fmt"
	"strings"
)

// Some objects of the repository make a Secret in the cluster: an
// ExternalSecret (External Secrets Operator) makes spec.target.name, its
// own name by default; a SealedSecret (Sealed Secrets) makes its own
// name, or spec.template.metadata.name; an InfisicalSecret makes each of
// spec.managedKubeSecretReferences, and spec.managedSecretReference, in
// the namespace each names. The Secret will exist, and its
// data is the cluster's: a stack that reads it loads, and waits for its
// data from --inputs or --kubeconfig, the message saying which object
// makes it.

// secretMaker is an object of the repository that makes a Secret in the
// cluster.
type secretMaker struct {
	// ref is "Kind/namespace/name" of the maker, and file its file.
	ref, file string
}

// The API groups of the objects that make Secrets.
const (
	groupExternalSecrets = "external-secrets.io"
	groupSealedSecrets   = "bitnami.com"
	groupInfisical       = "secrets.infisical.com"
)

// noteMaker records, when obj makes a Secret in the cluster, which
// Secret, by namespace and name.
func (l *loader) noteMaker(file string, obj map[string]any) {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, _, _ := strings.Cut(apiVersion, "/")
	md, _ := obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	spec, _ := obj["spec"].(map[string]any)
	secret := ""
	switch {
	case group == groupExternalSecrets && kind == "ExternalSecret":
		secret = name
		if target, _ := spec["target"].(map[string]any); target != nil {
			if n, _ := target["name"].(string); n != "" {
				secret = n
			}
		}
	case group == groupSealedSecrets && kind == "SealedSecret":
		secret = name
		if tmpl, _ := spec["template"].(map[string]any); tmpl != nil {
			if tmd, _ := tmpl["metadata"].(map[string]any); tmd != nil {
				if n, _ := tmd["name"].(string); n != "" {
					secret = n
				}
			}
		}
	case group == groupInfisical && kind == "InfisicalSecret":
		refs, _ := spec["managedKubeSecretReferences"].([]any)
		if one, ok := spec["managedSecretReference"].(map[string]any); ok {
			refs = append(refs, one)
		}
		for _, r := range refs {
			m, _ := r.(map[string]any)
			n, _ := m["secretName"].(string)
			rns, _ := m["secretNamespace"].(string)
			if rns == "" {
				rns = ns
			}
			l.addMaker(file, kind, ns, name, rns, n)
		}
		return
	default:
		return
	}
	l.addMaker(file, kind, ns, name, ns, secret)
}

// addMaker records that the object kind ns/name of file makes Secret
// secretNS/secret.
func (l *loader) addMaker(file, kind, ns, name, secretNS, secret string) {
	if name == "" || secret == "" {
		return
	}
	if l.makers == nil {
		l.makers = map[string]secretMaker{}
	}
	key := secretNS + "/" + secret
	if _, ok := l.makers[key]; !ok {
		l.makers[key] = secretMaker{ref: fmt.Sprintf("%s/%s/%s", kind, ns, name), file: file}
	}
}

// maker returns what makes Secret namespace/name in the cluster, if an
// object of the repository does; one that names no namespace matches any.
func (l *loader) maker(namespace, name string) (secretMaker, bool) {
	if m, ok := l.makers[namespace+"/"+name]; ok {
		return m, true
	}
	m, ok := l.makers["/"+name]
	return m, ok
}
