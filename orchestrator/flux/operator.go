package flux

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-iac/strata/orchestrator/environment"
	"sigs.k8s.io/yaml"
)

// The Flux Operator makes the source its cluster syncs from: a
// FluxInstance's spec.sync becomes a GitRepository (or OCIRepository, or
// Bucket) named spec.sync.name, flux-system by default, in the
// FluxInstance's namespace, with spec.sync's url and ref. The FluxInstance
// is often made by the flux-instance Helm chart, from a HelmRelease's
// values.instance. Repositories that bootstrap this way name that source
// in their Kustomizations (sourceRef: GitRepository/<repo>), and the
// FluxInstance that makes it sits under one of those very Kustomizations:
// in the cluster it was applied first, by hand or by a bootstrap. So the
// loader looks for them in the whole checkout, once, when a sourceRef
// names a GitRepository that no build rendered.

// fluxOperatorGroup is the API group of the Flux Operator.
const fluxOperatorGroup = "fluxcd.controlplane.io"

// Bounds of the search for operator sources: files and bytes read.
const (
	maxOperatorFiles = 20000
	maxOperatorFile  = 1 << 20
)

// operatorSync is spec.sync of a FluxInstance, or values.instance.sync
// of a HelmRelease of the flux-instance chart.
type operatorSync struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	URL  string `json:"url"`
	Ref  string `json:"ref"`
	Path string `json:"path"`
}

// operatorSources returns the GitRepositories that FluxInstances in the
// checkout make, found once.
func (l *loader) operatorSources() []*gitRepository {
	s := l.self
	s.operatorOnce.Do(func() { s.operator, s.instances = findOperatorSources(l.ctx, s.root) })
	return s.operator
}

// operatorInstances returns the FluxInstances of the checkout (and the
// flux-instance chart's values), found once.
func (l *loader) operatorInstances() []operatorInstance {
	l.operatorSources()
	return l.self.instances
}

// findOperatorSources walks the checkout for FluxInstances and
// HelmReleases of the flux-instance chart, and turns each spec.sync of
// kind GitRepository into the GitRepository the operator makes of it. It
// also returns every instance whose sync has a path, from those and from
// the chart's values files (operatorInstances).
func findOperatorSources(ctx context.Context, root string) ([]*gitRepository, []operatorInstance) {
	var out []*gitRepository
	var instances []operatorInstance
	walkCheckout(ctx, root, func(b []byte) bool {
		return bytes.Contains(b, []byte("sync:")) && (bytes.Contains(b, []byte("FluxInstance")) || bytes.Contains(b, []byte("instance:")))
	}, func(rel string, b []byte) {
		docs := instanceDocs(b)
		out = append(out, syncsOf(rel, docs)...)
		instances = append(instances, instancesOf(rel, docs)...)
	})
	return out, instances
}

// walkCheckout calls visit with each YAML file of the checkout (its path
// relative to root, slash-separated) whose content keep admits: regular
// files of at most maxOperatorFile bytes, outside directories whose name
// starts with a dot, maxOperatorFiles of them at most, until ctx ends.
func walkCheckout(ctx context.Context, root string, keep func([]byte) bool, visit func(rel string, b []byte)) {
	files := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case ctx.Err() != nil:
			// Stopped: the load returns its own error.
			return filepath.SkipAll
		case err != nil:
			return nil
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root:
			return filepath.SkipDir
		case d.IsDir() || !isYAML(d.Name()) || d.Type()&fs.ModeType != 0:
			return nil
		}
		if files++; files > maxOperatorFiles {
			return filepath.SkipAll
		}
		fi, err := d.Info()
		if err != nil || fi.Size() > maxOperatorFile {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || !keep(b) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		visit(filepath.ToSlash(rel), b)
		return nil
	})
}

// operatorSyncs decodes the documents of one file and returns the
// GitRepositories their FluxInstances' spec.sync make.
func operatorSyncs(file string, b []byte) []*gitRepository {
	return syncsOf(file, instanceDocs(b))
}

// syncsOf returns the GitRepositories the FluxInstances and flux-instance
// HelmReleases among docs make of their sync (a values file makes none:
// its HelmRelease does).
func syncsOf(file string, docs []instanceDoc) []*gitRepository {
	var out []*gitRepository
	for _, d := range docs {
		sync := d.sync
		if !d.object || sync.URL == "" || (sync.Kind != "" && sync.Kind != environment.SourceGitRepository) {
			continue
		}
		g := &gitRepository{}
		g.APIVersion, g.Kind, g.File = groupSource+"/v1", environment.SourceGitRepository, file
		g.Metadata.Name = sync.Name
		if g.Metadata.Name == "" {
			g.Metadata.Name = environment.DefaultGitSource
		}
		g.Metadata.Namespace = d.namespace
		g.Spec.URL = sync.URL
		out = append(out, g)
	}
	return out
}

// instanceDoc is a document that holds a Flux Operator instance's sync:
// a FluxInstance's spec, a flux-instance HelmRelease's values.instance, or
// the chart's values file's instance.
type instanceDoc struct {
	// namespace is the document's metadata.namespace, DefaultNamespace
	// when it names none.
	namespace string
	// object is false for the chart's values file, which is no object.
	object bool
	sync   *operatorSync
	// kustomize is the instance's kustomize, as written; read only where
	// its patches are (instancesOf), so that one of another shape keeps
	// the sync.
	kustomize json.RawMessage
}

// instanceDocs decodes the documents of one file, once, and returns
// those that hold an instance with a sync.
func instanceDocs(b []byte) []instanceDoc {
	type instance struct {
		Sync      *operatorSync   `json:"sync"`
		Kustomize json.RawMessage `json:"kustomize"`
	}
	var out []instanceDoc
	for _, doc := range splitDocuments(b) {
		var obj struct {
			meta
			Instance json.RawMessage `json:"instance"`
			Spec     struct {
				instance
				Values struct {
					Instance instance `json:"instance"`
				} `json:"values"`
			} `json:"spec"`
		}
		if yaml.Unmarshal(doc, &obj) != nil {
			continue
		}
		var in instance
		object := true
		switch {
		case obj.group() == fluxOperatorGroup && obj.Kind == "FluxInstance":
			in = obj.Spec.instance
		case obj.group() == "helm.toolkit.fluxcd.io" && obj.Kind == "HelmRelease":
			in = obj.Spec.Values.Instance
		case obj.Kind == "" && obj.APIVersion == "" && len(obj.Instance) > 0:
			if json.Unmarshal(obj.Instance, &in) != nil {
				continue
			}
			object = false
		}
		if in.Sync == nil {
			continue
		}
		ns := obj.Metadata.Namespace
		if ns == "" {
			ns = DefaultNamespace
		}
		out = append(out, instanceDoc{namespace: ns, object: object, sync: in.Sync, kustomize: in.Kustomize})
	}
	return out
}

// splitDocuments splits a YAML stream at its document separators.
func splitDocuments(b []byte) [][]byte {
	var docs [][]byte
	for _, d := range bytes.Split(b, []byte("\n---")) {
		if len(bytes.TrimSpace(d)) > 0 {
			docs = append(docs, d)
		}
	}
	return docs
}
