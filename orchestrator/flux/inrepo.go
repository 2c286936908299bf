package flux

import (
	"bytes"
	"context"
	"slices"

	"sigs.k8s.io/yaml"
)

// A ConfigMap or Secret that a Kustomization or a stack reads and no
// build of the environment renders is "not in the repository" only when
// no file of the checkout holds it. Often one does: in a directory that
// no Kustomization of this environment applies (another cluster's, or
// one left out of a kustomization file). The loader then names that
// file, so that the fix is to apply it, not to invent it. The checkout
// is walked for them once, only when some input is missing, within the
// bounds of the Flux Operator search (maxOperatorFiles files of at most
// maxOperatorFile bytes).

// inRepo returns the files of the checkout, relative to the root and
// sorted, that hold a v1 object of kind named name in namespace (any
// namespace when the object names none).
func (l *loader) inRepo(kind, namespace, name string) []string {
	if l.repoObjects == nil {
		l.repoObjects = findRepoObjects(l.ctx, l.self.root)
	}
	var files []string
	for _, o := range l.repoObjects[kind+"/"+name] {
		if o.namespace == "" || o.namespace == namespace {
			files = append(files, o.file)
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// repoObject is where a ConfigMap or Secret is written.
type repoObject struct {
	file, namespace string
}

// findRepoObjects walks the checkout for the ConfigMaps and Secrets it
// holds, by kind/name.
func findRepoObjects(ctx context.Context, root string) map[string][]repoObject {
	out := map[string][]repoObject{}
	walkCheckout(ctx, root, func(b []byte) bool {
		return bytes.Contains(b, []byte("ConfigMap")) || bytes.Contains(b, []byte("Secret"))
	}, func(rel string, b []byte) {
		for _, doc := range splitDocuments(b) {
			var m meta
			if yaml.Unmarshal(doc, &m) != nil || m.group() != groupCore || (m.Kind != kindConfigMap && m.Kind != kindSecret) {
				continue
			}
			key := m.Kind + "/" + m.Metadata.Name
			out[key] = append(out[key], repoObject{file: rel, namespace: m.Metadata.Namespace})
		}
	})
	return out
}
