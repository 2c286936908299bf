package flux

import (
	"encoding/json"
	"fmt"
	"path"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// A Flux Operator cluster syncs its entry directory with a Kustomization
// the operator makes of the FluxInstance's spec.sync, named as the sync
// (flux-system by default), to which it applies the instance's
// spec.kustomize.patches with kustomize. That is where such a repository
// gives the entry directory SOPS decryption ("Add Sops decryption to
// 'flux-system' Kustomization"): the Kustomization is in no file of the
// repository. The loader makes it the same way, from the FluxInstances of
// the checkout, the flux-instance chart's HelmReleases and its values
// files, and reads the entry directory's decryption from it when no
// Kustomization of the repository applies the directory.

// operatorInstance is one FluxInstance's sync and kustomize patches, or
// the flux-instance chart's values.instance of them.
type operatorInstance struct {
	// File is where it is written, relative to the root.
	File      string
	Namespace string
	Sync      operatorSync
	// Patches are spec.kustomize.patches, as written.
	Patches []any
}

// operatorInstances decodes the documents of one file and returns the
// instances among them whose sync has a path: FluxInstances, HelmReleases
// (values.instance) and the flux-instance chart's values files (a document
// that is no object, with instance.sync).
func operatorInstances(file string, b []byte) []operatorInstance {
	return instancesOf(file, instanceDocs(b))
}

// instancesOf returns the instances among docs whose sync has a path,
// with their kustomize patches; one whose kustomize is of another shape
// is none.
func instancesOf(file string, docs []instanceDoc) []operatorInstance {
	var out []operatorInstance
	for _, d := range docs {
		if d.sync.Path == "" {
			continue
		}
		var k struct {
			Patches []any `json:"patches"`
		}
		if len(d.kustomize) > 0 && json.Unmarshal(d.kustomize, &k) != nil {
			continue
		}
		out = append(out, operatorInstance{File: file, Namespace: d.namespace, Sync: *d.sync, Patches: k.Patches})
	}
	return out
}

// operatorEntry returns the Kustomization the Flux Operator makes to sync
// the entry directory, its instance's patches applied, and where the
// instance is written; nil when no instance syncs the directory, or its
// patches do not build (the instance is not the repository's to judge:
// the entry directory is then read as if no Kustomization applied it).
func (l *loader) operatorEntry() (map[string]any, string) {
	for _, in := range l.operatorInstances() {
		if p, ok := cleanPath(in.Sync.Path); !ok || p != l.dir {
			continue
		}
		m, err := syncKustomization(in)
		if err != nil {
			l.env.Notes = append(l.env.Notes, fmt.Sprintf("the Kustomization the Flux Operator makes of the sync in %s was not read: %v", in.File, err))
			return nil, ""
		}
		return m, in.File
	}
	return nil, ""
}

// syncKustomization makes an instance's sync Kustomization and applies
// its patches with kustomize, in memory, as the operator does.
func syncKustomization(in operatorInstance) (map[string]any, error) {
	name := in.Sync.Name
	if name == "" {
		name = DefaultNamespace
	}
	kind := in.Sync.Kind
	if kind == "" {
		kind = "GitRepository"
	}
	k := map[string]any{
		"apiVersion": groupKustomize + "/v1",
		"kind":       kindKustomization,
		"metadata":   map[string]any{"name": name, "namespace": in.Namespace},
		"spec": map[string]any{
			"interval":  "10m",
			"path":      in.Sync.Path,
			"prune":     true,
			"sourceRef": map[string]any{"kind": kind, "name": name},
		},
	}
	if len(in.Patches) == 0 {
		return k, nil
	}
	fs := filesys.MakeFsInMemory()
	dir := "/sync"
	res, err := yaml.Marshal(k)
	if err != nil {
		return nil, err
	}
	kfile, err := yaml.Marshal(map[string]any{
		"apiVersion": "kustomize.config.k8s.io/v1beta1",
		"kind":       "Kustomization",
		"resources":  []string{"sync.yaml"},
		"patches":    in.Patches,
	})
	if err != nil {
		return nil, err
	}
	for f, b := range map[string][]byte{"sync.yaml": res, "kustomization.yaml": kfile} {
		if err := fs.WriteFile(path.Join(dir, f), b); err != nil {
			return nil, err
		}
	}
	buildMu.Lock()
	rm, err := krusty.MakeKustomizer(krustyOptions()).Run(fs, dir)
	buildMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("apply spec.kustomize.patches: %w", err)
	}
	for _, r := range rm.Resources() {
		if r.GetKind() == kindKustomization && r.GetName() == name {
			return r.Map()
		}
	}
	return nil, fmt.Errorf("apply spec.kustomize.patches: the Kustomization %s is gone", name)
}
