package flux

import (
	"fmt"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// bootstrapName is the name of the Kustomization that `flux bootstrap`
// makes to apply a cluster's directory, which strata stands in for when
// the repository holds none (adoptEntry).
const bootstrapName = "flux-system"

// adoptEntry gives the Terraform objects and OCIRepositories of the entry
// directory itself to the Kustomization that applies the directory, as
// Flux would have it: the one of the repository whose spec.path is the
// entry directory, or else the bootstrap Kustomization, made in the
// cluster by `flux bootstrap` and so not in the repository, which strata
// makes in its place.
//
// A Terraform object of the entry directory that a Kustomization of the
// repository renders too (a bootstrap whose flux-system Kustomization
// points at a sub-directory that leads to it) is that Kustomization's
// alone: in the cluster nothing applies the entry directory as a whole.
func (l *loader) adoptEntry() {
	if l.entry == nil || len(l.entry.terraforms) == 0 && len(l.entry.sources) == 0 {
		return
	}
	key := func(tf *terraform) string { return tf.File + "\x00" + objectID(&tf.object) }
	rendered := map[string]bool{}
	for _, a := range l.apps {
		if a == l.entry {
			continue
		}
		for _, tf := range a.terraforms {
			rendered[key(tf)] = true
		}
	}
	own := l.entry.terraforms[:0:0]
	for _, tf := range l.entry.terraforms {
		if !rendered[key(tf)] {
			own = append(own, tf)
		}
	}
	l.entry.terraforms = own
	if len(l.entry.terraforms) == 0 && len(l.entry.sources) == 0 {
		return
	}
	for _, k := range l.sortedKustomizations() {
		if k.appliesEntry {
			a := l.apps[k.unit()]
			a.terraforms = append(a.terraforms, l.entry.terraforms...)
			a.sources = append(a.sources, l.entry.sources...)
			return
		}
	}
	if len(l.entry.terraforms) == 0 {
		return
	}
	name := bootstrapName
	for i := 2; l.kustomizations[name] != nil; i++ {
		name = fmt.Sprintf("%s-%d", bootstrapName, i)
	}
	k := &kustomization{object: object{meta: meta{APIVersion: groupKustomize + "/v1", Kind: kindKustomization}, File: l.dir}, bootstrap: true}
	k.Metadata.Name = name
	k.Metadata.Namespace = "flux-system"
	k.Spec.Path = "./" + l.dir
	k.Spec.SourceRef = &sourceRef{Kind: environment.SourceGitRepository, Name: environment.DefaultGitSource}
	l.kustomizations[name] = k
	l.apps[name] = l.entry
	l.env.Notes = append(l.env.Notes, fmt.Sprintf("the Terraform objects of %s/ itself are brought in by the Kustomization %s that `flux bootstrap` makes to apply the directory, which is not in the repository", l.dir, name))
}
