package flux

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/strata-iac/strata/internal/tofufiles"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/rendercache"
	"github.com/strata-iac/strata/orchestrator/tofucontroller"
)

// buildStack makes the model of one Terraform object brought in by the
// Kustomization k: the Tofu Controller's fields by its rules
// (tofucontroller.Build, over the ConfigMaps and Secrets the render
// holds), then what Flux decides of it: its source, its Kustomization,
// that Kustomization's dependsOn and its version.
func (l *loader) buildStack(k *kustomization, tf *terraform) *built {
	b := &built{tf: tf, k: k}
	b.stack, b.backendSecrets = tofucontroller.Build(&tofucontroller.Terraform{
		Name:        tf.Name(),
		Namespace:   namespaceOf(&tf.object),
		File:        tf.File,
		Labels:      tf.Metadata.Labels,
		Annotations: tf.Metadata.Annotations,
		Raw:         tf.rawMap(),
		Spec:        tf.Spec,
	}, stackRender{l: l, b: b})
	if tf.rawJSON != nil {
		// Decoded for the checks only, and nothing reads the JSON
		// again either (sum and variables stand for it), unless a
		// test keeps what was rendered.
		tf.raw = nil
		if !l.keepRendered {
			tf.rawJSON = nil
		}
	}
	s := b.stack
	ns := namespaceOf(&tf.object)
	s.Name, s.Namespace = l.stackName(tf), ns
	l.checkStackName(tf)
	l.nameByNamespace(tf, s)
	s.Group = k.Group
	s.Kustomization = k.unit()
	s.KustomizationFile = k.File
	if f := l.frozen(k, tf); f != nil {
		s.Frozen, s.FrozenOnceRun = f.why, f.once
		when := "keeps what it last ran, and applies no change"
		if f.once {
			when = "runs once, to create it, and applies no change after"
		}
		l.warn(diag.Problem{
			File: tf.File, Object: "Terraform/" + tf.Name(),
			Message: fmt.Sprintf("%s: strata %s, as the Tofu Controller does", f.why, when),
			Fix:     f.fix,
		})
	}
	l.resolveSource(b)
	for _, d := range k.Spec.DependsOn {
		if u, _ := l.dependency(k, d); l.apps[u] != nil {
			a := l.apps[u]
			for _, t := range a.terraforms {
				s.DependsOn = append(s.DependsOn, l.stackName(t))
			}
		}
	}
	slices.Sort(s.DependsOn)
	s.DependsOn = slices.Compact(s.DependsOn)
	// The versions ConfigMap is the object's namespace's: the key is of
	// its name there.
	key := VersionKey(tf.Name())
	for _, scope := range []string{k.Group, ""} {
		if cm := l.configMaps.get(scope, VersionsConfigMap, namespaceOf(&tf.object)); cm != nil {
			if v, ok := cm.Data[key]; ok {
				s.Version, s.VersionKey, b.versions = v, key, cm
				break
			}
		}
	}
	tf.release()
	return b
}

// stackRender is the render as tofucontroller.Build reads it for the
// stack b: the ConfigMaps and Secrets of b's Kustomization's scope and
// of the inputs, and the loader's problems and notes.
type stackRender struct {
	l *loader
	b *built
}

func (r stackRender) ConfigMap(name string) *tofucontroller.Object {
	cm := r.l.configMap(r.b.k.Group, name)
	if cm == nil {
		return nil
	}
	return &tofucontroller.Object{Kind: kindConfigMap, Name: cm.Name(), File: cm.File, Data: cm.Data}
}

func (r stackRender) Secret(name string) *tofucontroller.Object {
	sec := r.l.secret(r.b.k.Group, name)
	if sec == nil {
		return nil
	}
	return &tofucontroller.Object{Kind: kindSecret, Name: sec.Name(), File: sec.File, Data: sec.Data, Failed: sec.Failed}
}

// SecretIn looks the Secret up as Secret does, in namespace ns. A cluster's
// namespace reads another's only with cross-namespace references.
func (r stackRender) SecretIn(ns, name string) (*tofucontroller.Object, bool) {
	if r.l.artifacts != nil && !r.l.crossNamespace {
		return nil, false
	}
	var obj *tofucontroller.Object
	r.l.inNamespace(ns, func() { obj = r.Secret(name) })
	return obj, true
}

func (r stackRender) Unset(o *tofucontroller.Object, use string) {
	r.l.checkUnset(r.b, o.File, o.Kind+"/"+o.Name, use)
}

func (r stackRender) FromCluster() bool { return r.l.artifacts != nil }

func (r stackRender) Problem(p diag.Problem) { r.l.problem(p) }

func (r stackRender) Missing(p diag.Problem) {
	r.l.missing(p, p.Input.Kind, p.Input.Namespace, p.Input.Name)
}

func (r stackRender) Warn(p diag.Problem) { r.l.warn(p) }

func (r stackRender) Note(note string) { r.l.env.Notes = append(r.l.env.Notes, note) }

// stackName names tf's stack (names.stack). A strata.dev/stack
// annotation that cannot name a stack is a problem of the object
// (checkStackName), and the stack has strata's name.
func (l *loader) stackName(tf *terraform) string {
	return l.names.stack(namespaceOf(&tf.object), tf.Name())
}

// checkStackName reports a strata.dev/stack annotation that cannot name a
// stack.
func (l *loader) checkStackName(tf *terraform) {
	v, ok := tf.Metadata.Annotations[environment.AnnotationStack]
	if !ok || v != "" && validStackName(v) {
		return
	}
	l.problem(diag.Problem{
		File:    tf.File,
		Object:  tf.ref(),
		Message: fmt.Sprintf("annotation %s is %q, which cannot name a stack", environment.AnnotationStack, v),
		Fix: fmt.Sprintf("write a Kubernetes object name (lowercase letters, digits, '-' and '.'), or namespace%sname for a stack named after its namespace, such as %q; or remove the annotation",
			environment.NamespaceSeparator, environment.Qualified(namespaceOf(&tf.object), tf.Name())),
	})
}

// nameByNamespace turns the names that tofucontroller.Build took from
// tf's fields, which are of tf's namespace, into the environment's: each
// spec.dependsOn entry's stack, and the contract of each Secret it
// writes or reads as another stack's outputs (names). A contract the
// strata.dev/contract annotation names is the environment's already.
func (l *loader) nameByNamespace(tf *terraform, s *environment.Stack) {
	ns := namespaceOf(&tf.object)
	s.DependsOn = s.DependsOn[:0]
	for _, d := range tf.refs.dependsOn {
		s.DependsOn = append(s.DependsOn, l.names.dependency(tf, d))
	}
	if w := tf.refs.writeOutputsToSecret; w != nil && s.Produces == w.Name && tf.Metadata.Annotations[environment.AnnotationContract] == "" {
		s.Produces = l.names.contract(ns, w.Name)
	}
	for i := range s.Consumes {
		s.Consumes[i].Contract = l.names.contract(ns, s.Consumes[i].Contract)
	}
	for i := range s.ContractVars {
		s.ContractVars[i].Contract = l.names.contract(ns, s.ContractVars[i].Contract)
	}
}

// VersionKey is the key of the service-versions ConfigMap that holds the
// version of the named stack's code: version_<name>_tf, "-" written as "_".
func VersionKey(stack string) string {
	return "version_" + strings.ReplaceAll(stack, "-", "_") + "_tf"
}

// resolveSource fills the stack's Source and Path from spec.sourceRef and
// spec.path.
func (l *loader) resolveSource(b *built) {
	tf, s := b.tf, b.stack
	ref := tf.source()
	p, ok := cleanPath(tf.Spec.Path)
	s.Path = p
	if !ok {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.path %q leaves the source", tf.Spec.Path),
			Fix:     "make spec.path relative to the root of the source, e.g. ./flux-apps/<kind>/<service>/terraform",
		})
	}
	if ref == nil {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: "spec.sourceRef is missing",
			Fix:     fmt.Sprintf("set spec.sourceRef to GitRepository %s (this repository) or to an OCIRepository defined next to %s", environment.DefaultGitSource, tf.File),
		})
		return
	}
	s.Source = environment.Source{Kind: ref.Kind, Name: ref.Name}
	if l.artifacts != nil {
		l.clusterDependsOn(b)
		l.clusterSource(b)
		return
	}
	switch ref.Kind {
	case environment.SourceGitRepository:
		if !l.isSelf(ref, &tf.object) {
			l.gitSource(b)
			return
		}
		s.Source.Self = ref.Name != environment.DefaultGitSource
		if g := l.findGitRepository(ref, &tf.object); g != nil {
			s.Source.Ignore = g.Spec.Ignore
		}
		if ok {
			l.checkModuleDir(tf, p)
		}
	case environment.SourceBucket:
		l.bucketSource(b)
	case environment.SourceOCIRepository:
		src := l.findSource(tf, ref.Name)
		if src == nil {
			l.problem(diag.Problem{
				File:    tf.File,
				Object:  tf.ref(),
				Message: fmt.Sprintf("spec.sourceRef names %s, which does not exist", ref),
				Fix:     fmt.Sprintf("define OCIRepository %s in %s/ (next to the Terraform object) or correct spec.sourceRef.name", ref.Name, path.Dir(tf.File)),
			})
			return
		}
		b.source = src
		l.checkUnset(b, src.File, src.ref(), "the source")
		s.Source.File = src.File
		s.Source.URL = src.Spec.URL
		s.Source.Semver = src.Spec.Ref.Semver
		s.Source.Tag = src.Spec.Ref.Tag
		s.Source.Digest = src.Spec.Ref.Digest
		s.Source.Insecure = src.Spec.Insecure
		l.sourceTimeout(b, &src.object, src.Spec.Timeout)
	default:
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.sourceRef is of kind %q, which strata does not read", ref.Kind),
			Fix:     fmt.Sprintf("use kind %s, %s or %s", environment.SourceGitRepository, environment.SourceOCIRepository, environment.SourceBucket),
		})
	}
}

// checkModuleDir checks that the path of a stack whose code is in this
// repository is a directory holding module files: .tf, .tf.json, .tofu or
// .tofu.json. Each directory is listed once in a load (moduleDirOf): a
// fleet's stacks mostly share their module.
func (l *loader) checkModuleDir(tf *terraform, dir string) {
	fix := fmt.Sprintf("point spec.path at the directory of the stack's OpenTofu code, relative to the repository root (e.g. ./%s/terraform)", path.Dir(tf.File))
	switch l.moduleDirOf(dir) {
	case moduleDirMissing:
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.path %q is not a directory of this repository", tf.Spec.Path),
			Fix:     fix,
		})
	case moduleDirNoCode:
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.path %q holds no .tf, .tf.json, .tofu or .tofu.json files", tf.Spec.Path),
			Fix:     fix,
		})
	}
}

// moduleDir is what a stack's spec.path holds.
type moduleDir int

const (
	moduleDirCode moduleDir = iota
	moduleDirMissing
	moduleDirNoCode
)

// moduleDirOf lists dir, once in a load, for checkModuleDir.
func (l *loader) moduleDirOf(dir string) moduleDir {
	if got, ok := l.moduleDirs[dir]; ok {
		return got
	}
	if l.rec != nil {
		l.rec.Probe(rendercache.List, l.abs(dir))
	}
	got := moduleDirNoCode
	entries, err := l.ahead.listDir(l.abs(dir))
	if err != nil {
		got, entries = moduleDirMissing, nil
	}
	for _, e := range entries {
		if !e.IsDir() && tofufiles.IsRootCode(e.Name()) {
			got = moduleDirCode
			break
		}
	}
	if l.moduleDirs == nil {
		l.moduleDirs = map[string]moduleDir{}
	}
	l.moduleDirs[dir] = got
	return got
}

// findSource finds the OCIRepository a Terraform object refers to: first
// one in the same directory, then one anywhere the environment loaded.
func (l *loader) findSource(tf *terraform, name string) *ociRepository {
	var found *ociRepository
	for _, k := range l.sortedKustomizations() {
		for _, src := range l.apps[k.unit()].sources {
			if src.Name() != name {
				continue
			}
			if path.Dir(src.File) == path.Dir(tf.File) {
				return src
			}
			if found == nil {
				found = src
			}
		}
	}
	return found
}
