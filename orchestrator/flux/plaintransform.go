package flux

import (
	"path/filepath"
	"slices"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/checkout"
)

// A kustomization's patches, its Components and its commonAnnotations
// are kustomize's builtin transformers, which krusty runs over what the
// kustomization's files hold: first each Component's (its patches, then
// its commonAnnotations), then the kustomization's own, in krusty's
// order (patches, namespace, namePrefix, nameSuffix, commonAnnotations).
// A plain build runs the same transformers, kustomize's own plugins
// configured as krusty configures them, over the objects it read, and
// does what krusty does around each: it keeps each object's origin
// annotation (krusty records every transformer beside it, which rewrites
// the annotations as strings), and drops what a transformer emptied. What
// it does not do is mend references to names a patch changed: a patch
// that changes an object's id, empties an object or loses its origin
// leaves the build to krusty, as does anything a transformer refuses
// (krusty says why).

// resmapFactory is kustomize's resource map factory, as krusty makes it.
var resmapFactory = resmap.NewFactory(resourceFactory)

// transformPlain runs over the resources of a plain build of k (in abs)
// what krusty's builtin transformers would run (see above), and returns
// them. annotated says each now carries its origin annotation, as krusty
// leaves it, in place of origins (collect reads it). A build that only
// moves its objects (namespace, namePrefix, nameSuffix), or whose
// patches are all JSON6902 patches applied to the YAML tree that leave
// the annotations alone (see light), is transformed without. It returns
// errNotPlain where krusty must build, also where a kustomize
// transformer panics (evanphx/json-patch does, replacing the whole
// document with nothing): krusty's build recovers from it and says so,
// as Flux's does.
func (l *loader) transformPlain(fsys *checkedFS, abs string, k plainKust, rs []*resource.Resource, origins []string) (_ []*resource.Resource, annotated bool, err error) {
	defer func() {
		if recover() != nil {
			err = errNotPlain
		}
	}()
	if !k.rewrites() {
		if !k.move(rs) {
			return nil, false, errNotPlain
		}
		return rs, false, nil
	}
	m := resmap.New()
	ids := make([]resid.ResId, len(rs))
	for i, r := range rs {
		if m.Append(r) != nil {
			return nil, false, errNotPlain
		}
		ids[i] = r.CurId()
	}
	var ts []resmap.Transformer
	for _, c := range k.components {
		comp, err := l.plainComponent(fsys, abs, c)
		if err != nil {
			return nil, false, err
		}
		more, err := l.transformers(comp, m)
		if err != nil {
			return nil, false, err
		}
		ts = append(ts, more...)
	}
	own, err := l.transformers(plainKust{patches: k.patches}, m)
	if err != nil {
		return nil, false, err
	}
	ts = append(ts, own...)
	// The kustomization's commonAnnotations come after its moves.
	last, err := l.transformers(plainKust{annotations: k.annotations}, m)
	if err != nil {
		return nil, false, err
	}
	annotated = !light(ts) || !light(last)
	if annotated {
		for i, r := range rs {
			if annotateOrigin(r, origins[i]) != nil {
				return nil, false, errNotPlain
			}
		}
	} else {
		lighten(ts)
	}
	for _, t := range ts {
		if err := l.transform(t, m, ids, annotated); err != nil {
			return nil, false, err
		}
	}
	rs = m.Resources()
	if !k.move(rs) {
		return nil, false, errNotPlain
	}
	for _, t := range last {
		if err := l.transform(t, m, nil, annotated); err != nil {
			return nil, false, err
		}
	}
	rs = m.Resources()
	for _, r := range rs {
		if !annotationsPlain(r) {
			if l.removeBuildAnnotations(r) != nil {
				return nil, false, errNotPlain
			}
		}
	}
	return rs, annotated, nil
}

// transformationsAnnotation is where krusty records the transformers
// that changed an object, beside its origin.
const transformationsAnnotation = "alpha.config.kubernetes.io/transformations"

// light reports whether a build's transformers (those before namespace,
// namePrefix and nameSuffix) can run without origin annotations: each is
// a JSON6902 patch applied to the YAML tree (see plainjsonpatch.go) that
// changes no object's metadata.annotations as a whole nor any of its
// keys, or commonAnnotations that name none of krusty's own. krusty's
// build keeps each object's origin there, beside the transformations it
// records, which such a patch neither reads nor changes; told so
// (lighten), it leaves out kustomize's bookkeeping of previous names,
// which a build that keeps every id (transform checks) never reads.
func light(ts []resmap.Transformer) bool {
	for _, t := range ts {
		if a, ok := t.(commonAnnotations); ok {
			// It adds annotations, which leaves the origin as it is
			// unless it names it.
			for k := range a.annotations {
				if k == originAnnotation || k == transformationsAnnotation || slices.Contains(resource.BuildAnnotations, k) {
					return false
				}
			}
			continue
		}
		jp, ok := t.(jsonPatchTransformer)
		if !ok || jp.patch.ops == nil {
			return false
		}
		for _, op := range jp.patch.ops {
			if op.path[0] == "metadata" && (len(op.path) == 1 || op.path[1] == "annotations") {
				return false
			}
		}
	}
	return true
}

// lighten tells each JSON6902 patch of a light build (see light) that
// the objects carry no origin annotation.
func lighten(ts []resmap.Transformer) {
	for i, t := range ts {
		if jp, ok := t.(jsonPatchTransformer); ok {
			jp.light = true
			ts[i] = jp
		}
	}
}

// transformers configures kustomize's builtin transformers of k's
// patches and commonAnnotations (those a Component holds), in krusty's
// order, as krusty configures them. m is what they will transform: a
// build with commonAnnotations over a kind whose default field specs
// name more than its metadata is krusty's.
func (l *loader) transformers(k plainKust, m resmap.ResMap) ([]resmap.Transformer, error) {
	var out []resmap.Transformer
	for _, p := range k.patches {
		if jp := l.jsonPatch(p.Patch); jp != nil {
			if p.Target == nil {
				return nil, errNotPlain
			}
			target, err := l.target(*p.Target)
			if err != nil {
				return nil, errNotPlain
			}
			out = append(out, jsonPatchTransformer{patch: jp, target: target, setAnnotations: l.setAnnotations})
			continue
		}
		c, err := yaml.Marshal(p)
		if err != nil {
			return nil, errNotPlain
		}
		t := builtins.NewPatchTransformerPlugin()
		if err := t.Config(resmap.NewPluginHelpers(nil, nil, resmapFactory, nil), c); err != nil {
			return nil, errNotPlain
		}
		out = append(out, t)
	}
	if len(k.annotations) > 0 {
		for _, r := range m.Resources() {
			if annotatedBeyondMetadata[r.GetKind()] {
				return nil, errNotPlain
			}
		}
		out = append(out, commonAnnotations{annotations: k.annotations, nonString: l.nonString})
	}
	return out, nil
}

// jsonPatch is readJSONPatch, once per patch in a load (a fleet's
// Kustomizations mostly patch alike): nil for a patch kustomize does not
// read as JSON6902.
func (l *loader) jsonPatch(text string) *jsonPatch {
	if p, ok := l.jsonPatches[text]; ok {
		return p
	}
	p, _ := readJSONPatch(text)
	if l.jsonPatches == nil {
		l.jsonPatches = map[string]*jsonPatch{}
	}
	l.jsonPatches[text] = p
	return p
}

// target is a patch's target, compiled once per target in a load (a
// fleet's Kustomizations mostly patch alike), where kustomize's Select
// compiles it for each patch it applies.
func (l *loader) target(s kustypes.Selector) (*patchTarget, error) {
	if t, ok := l.targets[s]; ok {
		return t, nil
	}
	re, err := kustypes.NewSelectorRegex(&s)
	if err != nil {
		return nil, err
	}
	if l.targets == nil {
		l.targets = map[kustypes.Selector]*patchTarget{}
	}
	t := &patchTarget{selector: s, re: re}
	l.targets[s] = t
	return t, nil
}

// annotatedBeyondMetadata are the kinds to whose pod templates
// kustomize's default commonAnnotations field specs add the annotations
// too (of any group, to be sure): a plain build annotates every other
// kind's metadata only, which is all kustomize does to them.
var annotatedBeyondMetadata = map[string]bool{
	"ReplicationController": true, "Deployment": true, "ReplicaSet": true, "DaemonSet": true,
	"StatefulSet": true, "Job": true, "CronJob": true,
}

// transform runs one transformer over m as krusty's runs each: then
// every object records it beside its origin annotation (see
// AddTransformerAnnotation), which a plain build does not write but
// whose rewrite of the annotations it makes, and what the transformer
// emptied is dropped. A build where an object lost its origin
// annotation (krusty would mark it generated, when annotated says the
// objects carry it), was dropped, or changed its id (krusty would mend
// what refers to the old one; ids, when set, are each object's before)
// is krusty's.
func (l *loader) transform(t resmap.Transformer, m resmap.ResMap, ids []resid.ResId, annotated bool) error {
	if err := t.Transform(m); err != nil {
		return errNotPlain
	}
	rs := m.Resources()
	if ids != nil && len(rs) != len(ids) {
		return errNotPlain
	}
	for i, r := range rs {
		if r.IsNilOrEmpty() || (ids != nil && r.CurId() != ids[i]) {
			return errNotPlain
		}
		if annotated {
			if o, err := r.GetOrigin(); err != nil || o == nil {
				return errNotPlain
			}
		}
		if !annotationStrings(r) {
			if l.setAnnotations(r, r.GetAnnotations()) != nil {
				return errNotPlain
			}
		}
	}
	return nil
}

// plainComponent reads the Component c lists, relative to abs, when a
// plain build can run it: a directory of the repository (no symbolic
// link on its way, not abs or above it, which kustomize's loader calls a
// cycle) with one kustomization file, a plain Component
// (plainKustomizationOf). It reads the file through fsys, as krusty
// would, with every check, once in a load for each set of rules of what
// a source's artifact leaves out (a fleet's stacks share their
// Components): a build that reads it again counts it against its limits,
// as its read would.
func (l *loader) plainComponent(fsys *checkedFS, abs, c string) (plainKust, error) {
	dir := filepath.Join(abs, filepath.FromSlash(c))
	if dir == abs || strings.HasPrefix(abs, dir+string(filepath.Separator)) {
		return plainKust{}, errNotPlain
	}
	key := componentKey{dir, fsys.rules}
	if got, ok := l.plainComponents[key]; ok {
		if got.err != nil || !fsys.counted(got.kfile) {
			return plainKust{}, errNotPlain
		}
		return got.k, nil
	}
	kfile, k, err := l.readComponent(fsys, dir)
	if l.plainComponents == nil {
		l.plainComponents = map[componentKey]componentAnswer{}
	}
	l.plainComponents[key] = componentAnswer{kfile, k, err}
	return k, err
}

// componentKey is a Component's directory, as the artifact of a build's
// source holds it (the rules it leaves out by).
type componentKey struct {
	dir   string
	rules *checkout.Rules
}

// componentAnswer is what plainComponent found of a Component's
// directory: its kustomization file, and what it holds, or errNotPlain.
type componentAnswer struct {
	kfile string
	k     plainKust
	err   error
}

// readComponent reads a Component's directory for plainComponent.
func (l *loader) readComponent(fsys *checkedFS, dir string) (kfile string, _ plainKust, _ error) {
	disk, ok := l.disk.(resolvedFS)
	if !ok {
		return "", plainKust{}, errNotPlain
	}
	rel := l.relPath(dir)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", plainKust{}, errNotPlain
	}
	if real := disk.resolve(dir); real == "" || real != filepath.Join(disk.root, rel) {
		return "", plainKust{}, errNotPlain
	}
	for _, name := range kustomizeFileNames {
		p := filepath.Join(dir, name)
		if fsys.Exists(p) && !fsys.IsDir(p) {
			if kfile != "" {
				return "", plainKust{}, errNotPlain
			}
			kfile = p
		}
	}
	if kfile == "" {
		return "", plainKust{}, errNotPlain
	}
	b, err := fsys.ReadFile(kfile)
	if err != nil {
		return "", plainKust{}, errNotPlain
	}
	k, ok := l.plainKustomization(b, true)
	if !ok {
		return "", plainKust{}, errNotPlain
	}
	return kfile, k, nil
}

// annotationStrings reports whether r's metadata.annotations, when set,
// are a mapping of distinct keys to plain strings: what kustomize's
// annotations rewrite leaves as it is.
func annotationStrings(r *resource.Resource) bool {
	a := field(field(r.YNode(), kyaml.MetadataField), kyaml.AnnotationsField)
	if a == nil {
		return true
	}
	if !writtenMapping(a) || !uniqueScalarKeys(a) {
		return false
	}
	return !slices.ContainsFunc(a.Content, func(n *yaml3.Node) bool {
		_, ok := plainString(n)
		return !ok
	})
}
