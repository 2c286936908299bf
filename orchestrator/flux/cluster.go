package flux

import (
	"context"
	"fmt"
	"path"

	"github.com/strata-iac/strata/internal/recovered"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// Namespace is what strata controller reads of one namespace of a
// cluster: its Terraform objects, Flux sources, ConfigMaps and Secrets,
// as the API server serves them.
type Namespace struct {
	// Name is the namespace.
	Name string
	// Root stands for the repository root: the state directory defaults to
	// <Root>/.strata. No code is read from it.
	Root string
	// Objects are the namespace's objects, decoded from JSON.
	Objects []map[string]any
	// CrossNamespaceRefs lets a spec.sourceRef name a source of another
	// namespace, as the Tofu Controller's --allow-cross-namespace-refs
	// does; without it such a reference is refused with the Tofu
	// Controller's message (diag.CodeAccessDenied).
	CrossNamespaceRefs bool
	// Sources are the Flux sources of other namespaces that spec.sourceRef
	// names, as the API server serves them: only their artifact is read,
	// and only with CrossNamespaceRefs.
	Sources []map[string]any
	// OutOfShard are the Terraform objects and sources that a spec.sourceRef
	// or spec.dependsOn names and that exist but belong to another shard,
	// by "Kind/name" ("Kind/namespace/name" in another namespace), each
	// with the labels that put it there; Shard is this controller's label
	// selector. They only make the errors of those references say so.
	OutOfShard map[string]string
	Shard      string
	// Isolate holds back, for a problem of one Terraform object, that
	// object and what depends on it (Environment.Blocked), as the Tofu
	// Controller fails one object alone and lets the others run. Without
	// it every problem is the load's error.
	Isolate bool
}

// Source kinds only a cluster has: source-controller's Bucket.
const sourceBucket = "Bucket"

// LoadNamespace builds the environment of one namespace of a cluster with
// the rules Load applies to a repository: every Terraform object is a
// stack, built and checked as if one Flux Kustomization had applied the
// namespace's objects. A stack's code is the artifact source-controller
// made of its spec.sourceRef (Source.Artifact), of any kind: GitRepository,
// OCIRepository or Bucket. The init ConfigMap, when the namespace has one,
// names the client and the environment; both are the namespace otherwise.
//
// Problems are reported as Load reports them, with "<namespace>/<Kind>/<name>"
// in place of a file. With Isolate, only those of the whole namespace are
// the error; those of one object are its Environment.Blocked entry.
func LoadNamespace(ctx context.Context, ns Namespace) (_ *environment.Environment, err error) {
	defer recovered.Catch(&err, "load namespace "+ns.Name)
	l := newLoader(ctx, ns.Root, ns.Name)
	l.env = &environment.Environment{Root: ns.Root, Dir: ns.Name, Client: ns.Name, Name: ns.Name, Skipped: map[string]int{}}
	defer l.closeDecryptor()
	l.artifacts = map[string]environment.Artifact{}
	l.crossNamespace = ns.CrossNamespaceRefs
	l.isolate = ns.Isolate
	l.outOfShard, l.shard = ns.OutOfShard, ns.Shard
	for _, o := range ns.Sources {
		if m := metaOf(o); m.group() == groupSource && ns.CrossNamespaceRefs {
			md, _ := o["metadata"].(map[string]any)
			namespace, _ := md["namespace"].(string)
			l.artifacts[m.Kind+"/"+namespace+"/"+m.Metadata.Name] = artifactOf(o)
		}
	}
	k := &kustomization{object: object{meta: meta{Kind: kindKustomization}, File: ns.Name}}
	k.Metadata.Name = ns.Name
	a := &app{}
	l.kustomizations[k.unit()], l.apps[k.unit()] = k, a
	outputs := outputSecrets(ns.Objects)
	objs := make([]renderedObject, 0, len(ns.Objects))
	for _, o := range ns.Objects {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := metaOf(o)
		if m.group() == groupCore && m.Kind == kindSecret && outputs[m.Metadata.Name] {
			// A stack's output Secret is read as that stack's contract,
			// so that its readers depend on it and read what it
			// publishes, not what it wrote last time.
			continue
		}
		file := path.Join(ns.Name, m.Kind, m.Metadata.Name)
		if m.group() == groupSource {
			l.artifacts[m.Kind+"/"+m.Metadata.Name] = artifactOf(o)
			if m.Kind != environment.SourceOCIRepository {
				// Only the artifact of a GitRepository or a Bucket is read.
				continue
			}
		}
		objs = append(objs, renderedObject{File: file, Object: o})
	}
	l.registerApp("", objs, a)
	l.checkInit()
	// Names by namespace and name, as in git mode; the Secrets that
	// stacks write are left to be read as the cluster holds them, as
	// they were before names were kept by namespace (written is empty).
	l.names = newNames(a.terraforms)
	l.names.written = nil
	for _, tf := range a.terraforms {
		l.within(k.unit(), l.stackName(tf), func() {
			l.stacks = append(l.stacks, l.buildStack(k, tf))
		})
	}
	env := l.finish()
	if ps := l.sortedProblems(); len(ps) > 0 {
		return env, fmt.Errorf("load namespace %s: %w", ns.Name, ps)
	}
	return env, nil
}

// shardText names this controller's objects, for an error.
func (l *loader) shardText() string {
	if l.shard == "" {
		return "every object"
	}
	return "the objects that match --watch-label-selector " + l.shard
}

// outputSecrets names the Secrets the Terraform objects write their outputs
// to (spec.writeOutputsToSecret.name).
func outputSecrets(objs []map[string]any) map[string]bool {
	out := map[string]bool{}
	for _, o := range objs {
		if m := metaOf(o); m.group() != groupInfra || m.Kind != kindTerraform {
			continue
		}
		spec, _ := o["spec"].(map[string]any)
		w, _ := spec["writeOutputsToSecret"].(map[string]any)
		if name, _ := w["name"].(string); name != "" {
			out[name] = true
		}
	}
	return out
}

// metaOf reads an object's apiVersion, kind and name.
func metaOf(o map[string]any) meta {
	var m meta
	m.APIVersion, _ = o["apiVersion"].(string)
	m.Kind, _ = o["kind"].(string)
	md, _ := o["metadata"].(map[string]any)
	m.Metadata.Name, _ = md["name"].(string)
	return m
}

// artifactOf reads a source's status.artifact.
func artifactOf(o map[string]any) environment.Artifact {
	st, _ := o["status"].(map[string]any)
	art, _ := st["artifact"].(map[string]any)
	var a environment.Artifact
	a.URL, _ = art["url"].(string)
	a.Digest, _ = art["digest"].(string)
	a.Revision, _ = art["revision"].(string)
	return a
}

// clusterDependsOn checks a Terraform object's spec.dependsOn entries
// that name another namespace, in a namespace of a cluster: refused
// without cross-namespace references, as the Tofu Controller refuses them
// (AccessDenied, with its message), where they were taken as a Terraform
// object of the object's own namespace of that name; with them, a problem
// too, for a namespace is one environment here, and strata cannot wait
// for an object of another.
func (l *loader) clusterDependsOn(b *built) {
	tf := b.tf
	for _, d := range tf.refs.dependsOn {
		if d.Namespace == "" || d.Namespace == tf.Metadata.Namespace || tf.Metadata.Namespace == "" {
			continue
		}
		p := diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Code:    diag.CodeAccessDenied,
			Message: fmt.Sprintf("cannot access %s/%s, cross-namespace references have been disabled", d.Namespace, d.Name),
			Fix:     fmt.Sprintf("move Terraform %s into namespace %s and remove its spec.dependsOn namespace, or start strata controller with --allow-cross-namespace-refs", d.Name, tf.Metadata.Namespace),
		}
		if l.crossNamespace {
			p.Code = ""
			p.Message = fmt.Sprintf("spec.dependsOn names Terraform %s/%s, of another namespace: strata controller reconciles each namespace as one environment, and cannot wait for an object of another", d.Namespace, d.Name)
			p.Fix = fmt.Sprintf("move Terraform %s into namespace %s, or read its outputs with spec.readInputsFromSecrets or varsFrom instead of depending on it", d.Name, tf.Metadata.Namespace)
		}
		l.problem(p)
	}
}

// clusterSource fills a stack's Source from the source-controller
// artifact of its spec.sourceRef, in a namespace of a cluster.
func (l *loader) clusterSource(b *built) {
	tf, s := b.tf, b.stack
	ref := tf.source()
	switch ref.Kind {
	case environment.SourceGitRepository, environment.SourceOCIRepository, sourceBucket:
	default:
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.sourceRef is of kind %q, which is not a Flux source", ref.Kind),
			Fix:     fmt.Sprintf("use kind %s, %s or %s", environment.SourceGitRepository, environment.SourceOCIRepository, sourceBucket),
		})
		return
	}
	key := ref.Kind + "/" + ref.Name
	foreign := ref.Namespace != "" && ref.Namespace != tf.Metadata.Namespace && tf.Metadata.Namespace != ""
	if foreign {
		if !l.crossNamespace {
			l.problem(diag.Problem{
				File:    tf.File,
				Object:  tf.ref(),
				Code:    diag.CodeAccessDenied,
				Message: fmt.Sprintf("cannot access %s/%s/%s, cross-namespace references have been disabled", ref.Kind, ref.Namespace, ref.Name),
				Fix: fmt.Sprintf("create the %s in namespace %s and remove spec.sourceRef.namespace, or start strata controller with --allow-cross-namespace-refs",
					ref.Kind, tf.Metadata.Namespace),
			})
			return
		}
		key = ref.Kind + "/" + ref.Namespace + "/" + ref.Name
	}
	art, ok := l.artifacts[key]
	if labels, elsewhere := l.outOfShard[key]; !ok && elsewhere {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Code:    diag.CodeSourceNotFound,
			Message: fmt.Sprintf("spec.sourceRef names %s, which is another shard's (%s): this controller reconciles %s", ref, labels, l.shardText()),
			Fix:     fmt.Sprintf("give %s %s the labels of this Terraform object's shard, or move the object to the source's shard", ref.Kind, ref.Name),
		})
		return
	}
	if !ok {
		msg, where := fmt.Sprintf("spec.sourceRef names %s, which does not exist", ref), "the namespace"
		if foreign {
			where = "namespace " + ref.Namespace
			msg += " in " + where
		}
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Code:    diag.CodeSourceNotFound,
			Message: msg,
			Fix:     fmt.Sprintf("create %s %s in %s, or correct spec.sourceRef", ref.Kind, ref.Name, where),
		})
		return
	}
	s.Source.Artifact = &art
	if src := l.findSource(tf, ref.Name); src != nil && ref.Kind == environment.SourceOCIRepository && !foreign {
		s.Source.URL = src.Spec.URL
		s.Source.Semver, s.Source.Tag, s.Source.Digest = src.Spec.Ref.Semver, src.Spec.Ref.Tag, src.Spec.Ref.Digest
	}
}
