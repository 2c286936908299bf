package flux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	yaml3 "go.yaml.in/yaml/v3"

	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/resid"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/strata-iac/strata/internal/regularfile"
	"github.com/strata-iac/strata/orchestrator/diag"
)

// A plain kustomization only lists manifest files of its own directory
// tree: no generator, transformer, patch, component, base or remote
// resource. Most of a fleet's are plain (one per stack, listing its
// Terraform object), and for them krusty's fixed cost (its plugin
// loader, builtin transformers and validators, each a no-op here) is most
// of a load's time. buildPlain builds one with kustomize's own resource
// factory, as krusty's accumulateFile reads each file, and applies what
// krusty would still do to it (see buildPlain); anything else is built by
// krusty.

// generatorFields are the fields of a Flux Kustomization's spec that
// Flux's generator writes into the kustomization it builds.
var generatorFields = []string{"targetNamespace", "namePrefix", "nameSuffix", "patches", "components", "patchesStrategicMerge", "patchesJson6902", "images", "buildMetadata"}

// plainFile reads the kustomization file of abs, as Flux's generator
// finds it (the first of kustomizeFileNames that is no directory), and
// returns the resources it lists when it is plain. A directory without
// one is not plain (Flux's generator lists what is under it), and nor is
// a kustomization file that the secure file system would not let be read
// as it is (a symbolic link, a directory that leads out of the
// repository): the generator says what it says of it.
func (l *loader) plainFile(abs string) (plainKust, bool) {
	disk, ok := l.disk.(resolvedFS)
	if !ok {
		return plainKust{}, false
	}
	if !disk.knownDir(filepath.Join(abs, kustomizeFileNames[0])) {
		return plainKust{}, false
	}
	for _, name := range kustomizeFileNames {
		// Read at once, no stat first: the open refuses a symbolic
		// link, and the read anything but a regular file.
		p := filepath.Join(abs, name)
		b, err := l.ahead.readNoFollow(p, MaxManifestBytes)
		switch {
		case err == nil:
			if mayExpand(b) {
				return plainKust{}, false
			}
			return l.plainKustomization(b, false)
		case errors.Is(err, regularfile.ErrNotRegular):
			if fi, err := os.Lstat(p); err != nil || !fi.IsDir() {
				return plainKust{}, false
			}
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return plainKust{}, false
		}
	}
	return plainKust{}, false
}

// plainKustomization is plainKustomizationOf, once per content in a
// load: a fleet's kustomization files are mostly the same few lines
// ("resources: [terraform.yaml]", a Component's patch), and a YAML parser
// costs more to set up than such a file costs to read. What it returns
// is shared: callers only read it (plainKust.with appends to copies).
func (l *loader) plainKustomization(b []byte, component bool) (plainKust, bool) {
	key := plainKey{string(b), component}
	if got, ok := l.plainKustomizations[key]; ok {
		return got.k, got.ok
	}
	k, ok := plainKustomizationOf(b, component)
	if l.plainKustomizations == nil {
		l.plainKustomizations = map[plainKey]plainAnswer{}
	}
	k.resources = slices.Clip(k.resources)
	k.components = slices.Clip(k.components)
	k.patches = slices.Clip(k.patches)
	l.plainKustomizations[key] = plainAnswer{k, ok}
	return k, ok
}

// plainKey is a kustomization file's content, and whether it is read as
// a Component's.
type plainKey struct {
	content   string
	component bool
}

// plainAnswer is what plainKustomizationOf made of a kustomization
// file's content.
type plainAnswer struct {
	k  plainKust
	ok bool
}

// buildPlainDir builds dir without krusty when what it builds is plain:
// the entry directory's top-level files (files), or the files Flux's
// generator lists in a directory without a kustomization file (scanned:
// see checkScanned) or a plain kustomization file lists, with what the
// generator writes of the Flux Kustomization's spec (plainGenerated) and
// what kustomize's transformers do to them (transformPlain). ok is false
// for anything else, and for a plain build that krusty must explain; the
// loader is then as it was.
func (l *loader) buildPlainDir(dir, abs string, entry bool, gen generating, fsys *checkedFS, files, scanned []string, owner string) (_ []renderedObject, _ *diag.Problem, ok bool) {
	k := plainKust{resources: files}
	fromScan := false
	switch {
	case !plainBuilds:
		return nil, nil, false
	case files != nil:
	case !gen.plainOK:
		return nil, nil, false
	case len(scanned) > 0:
		k, fromScan = plainKust{resources: scanned}.with(gen.plain), true
	default:
		if k, ok = l.plainFile(abs); !ok {
			return nil, nil, false
		}
		k = k.with(gen.plain)
	}
	if gen.decrypt {
		fsys.owner = owner
	}
	// The entry directory, thousands of Kustomizations in a fleet, is
	// built and collected entryPart files at a time, so that only one
	// part's YAML trees are held at once.
	size := len(k.resources)
	if entry {
		size = entryPart
		l.ahead.wantFiles(abs, k.resources)
		defer l.ahead.releaseFiles(abs, k.resources)
	}
	before := len(l.problems)
	seen := map[resid.ResId]bool{}
	var out []renderedObject
	for part := range slices.Chunk(k.resources, size) {
		rs, origins, err := l.buildPlain(l.ctx, fsys, abs, part, entry, seen)
		if e := fsys.elision; err == nil && e != nil && len(e.mappings) > 0 {
			if (fromScan && e.widest().keys > MaxMappingKeys) || k.rewrites() {
				// Flux's generator reads a directory without a
				// kustomization file with kustomize's reader
				// (checkScanned says so); a patch or an annotation may
				// touch a mapping read past kustomize, which krusty's
				// build says. A move touches no such mapping.
				err = errNotPlain
			} else {
				err = e.restore(rs)
			}
			fsys.elision = newElision()
		}
		annotated := false
		if err == nil {
			rs, annotated, err = l.transformPlain(fsys, abs, k, rs, origins)
		}
		if err != nil {
			l.undoPlain(fsys, before)
			return nil, nil, false
		}
		if annotated {
			// collect reads each object's origin annotation, as of
			// krusty's build.
			origins = nil
		}
		objs, p := l.collect(dir, abs, entry, gen, fsys, rs, origins, before, owner)
		if p != nil {
			return nil, p, true
		}
		out = append(out, objs...)
	}
	l.plainBuilt++
	return out, nil, true
}

// undoPlain puts a build back as it was before a plain build that failed
// (problems found since before forgotten, wide mappings read past
// kustomize forgotten), and marks it, so that krusty, which reads every
// file again and says what is wrong, is not given a plain build again.
func (l *loader) undoPlain(fsys *checkedFS, before int) {
	l.problems = l.problems[:before]
	if fsys.elision != nil {
		fsys.elision = newElision()
	}
	fsys.notPlain = true
}

// entryPart is how many files of the entry directory a plain build reads
// and collects at a time.
const entryPart = 256

// plainBuilds turns plain builds on; tests turn it off to compare them
// with krusty's.
var plainBuilds = true

// resourceFactory is kustomize's resource factory, as krusty makes it.
var resourceFactory = provider.NewDefaultDepProvider().GetResourceFactory()

// errNotPlain says a plain build met what only krusty says right: a file
// that is not there or not YAML, an object to drop, two of one id. The
// caller builds with krusty instead, which says what is wrong as
// kustomize does.
var errNotPlain = errors.New("not a plain build")

// buildPlain builds the resources a plain kustomization in dir lists
// (see plainResources), in its order, as krusty would:
//   - each file is read through fsys, with every check of a krusty build,
//     and decoded as kustomize's resource factory decodes it
//     (accumulateFile; see resourcesOf);
//   - the file each object came from is returned with it (origins, as
//     buildMetadata originAnnotations would annotate it);
//   - two objects of the same id, and a local-config object (which
//     IgnoreLocal would drop after every check), are left to krusty;
//   - build annotations are removed.
//
// The entry directory's build (entry) is held to the limits of one build
// per partSize files, as buildInParts holds it.
//
// What krusty does besides (name references, vars, sorting) changes
// nothing when no name changes and nothing sets them. It returns
// errNotPlain where krusty must say what is wrong.
func (l *loader) buildPlain(ctx context.Context, fsys *checkedFS, dir string, files []string, entry bool, seen map[resid.ResId]bool) (_ []*resource.Resource, origins []string, _ error) {
	fsys.mu.Lock()
	fsys.docs = map[string][]*yaml3.Node{}
	fsys.mu.Unlock()
	defer func() {
		fsys.mu.Lock()
		fsys.docs = nil
		fsys.mu.Unlock()
	}()
	var out []*resource.Resource
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if i == 0 || (entry && i%partSize == 0) {
			// The entry directory is built in parts (see buildInParts),
			// each held to the limits of one build.
			fsys.mu.Lock()
			fsys.objects, fsys.files = 0, 0
			fsys.mu.Unlock()
		}
		p := filepath.Join(dir, filepath.FromSlash(f))
		b, err := fsys.readPlain(p)
		if err != nil {
			return nil, nil, errNotPlain
		}
		fsys.mu.Lock()
		docs := fsys.docs[filepath.Clean(p)]
		delete(fsys.docs, filepath.Clean(p))
		fsys.mu.Unlock()
		rs, err := resourcesOf(b, docs)
		if err != nil {
			return nil, nil, errNotPlain
		}
		for _, r := range rs {
			if local, ok := r.GetAnnotations()[localConfig]; ok && local != "false" {
				return nil, nil, errNotPlain
			}
			id := r.CurId()
			// kustomize's ResId.Equals: the same group, version, kind and
			// name in the same effective namespace.
			key := resid.NewResIdWithNamespace(id.Gvk, id.Name, id.EffectiveNamespace())
			if seen[key] {
				return nil, nil, errNotPlain
			}
			seen[key] = true
			if !annotationsPlain(r) && l.removeBuildAnnotations(r) != nil {
				return nil, nil, errNotPlain
			}
			out = append(out, r)
			origins = append(origins, f)
		}
	}
	return out, origins, nil
}

// annotationsPlain reports whether kustomize's RemoveBuildAnnotations
// would leave r's metadata.annotations as they are: a mapping of distinct
// keys, none of them a build annotation, each value a plain string. (It
// writes any other mapping back sorted, its values as strings.) A fleet's
// objects are almost all so, and the rewrite is a tenth of what a plain
// build allocates.
func annotationsPlain(r *resource.Resource) bool {
	if !annotationStrings(r) {
		return false
	}
	a := field(field(r.YNode(), kyaml.MetadataField), kyaml.AnnotationsField)
	for i := 0; a != nil && i+1 < len(a.Content); i += 2 {
		if slices.Contains(resource.BuildAnnotations, a.Content[i].Value) {
			return false
		}
	}
	return true
}

// localConfig is kustomize's annotation of an object it reads but does
// not output (konfig.IgnoredByKustomizeAnnotation).
const localConfig = "config.kubernetes.io/local-config"

// resourcesOf decodes a manifest file into resources as kustomize's
// resource factory does (SliceFromBytes). docs are its documents as the
// file's check decoded them, nil when they were not kept: when each is a
// plain tree (no anchor, alias or merge key for kio's reader to resolve,
// no List to inline) they are taken as they are, instead of being read
// again.
func resourcesOf(b []byte, docs []*yaml3.Node) ([]*resource.Resource, error) {
	if docs == nil || bytes.IndexByte(b, '\r') >= 0 || slices.ContainsFunc(docs, func(d *yaml3.Node) bool { return !plainTree(d) }) {
		return resourceFactory.SliceFromBytes(b)
	}
	var nodes []*kyaml.RNode
	for _, d := range docs {
		if d.Kind == yaml3.DocumentNode && (len(d.Content) == 0 || d.Content[0].Tag == kyaml.NodeTagNull) {
			continue
		}
		n := kyaml.NewRNode(d)
		if n.IsNilOrEmpty() {
			continue
		}
		if !mappings(n.YNode()) {
			// kyaml's field lookups index a mapping's pairs: krusty says
			// what is wrong (see notObject).
			return nil, errNotPlain
		}
		if strings.HasSuffix(n.GetKind(), "List") {
			return resourceFactory.SliceFromBytes(b)
		}
		if _, err := n.GetValidatedMetadata(); err != nil {
			return nil, err
		}
		if found, path := n.HasNilEntryInList(); found {
			return nil, fmt.Errorf("empty item at %v", path)
		}
		if local, ok := n.GetAnnotations()[localConfig]; ok && local != "false" {
			// krusty drops it last, after every check (IgnoreLocal).
			return nil, errNotPlain
		}
		nodes = append(nodes, n)
	}
	return resourceFactory.DropLocalNodes(nodes)
}

// mappings reports whether an object and what of its metadata kyaml
// reads as mappings (metadata, its labels and annotations) are mappings,
// or absent (labels and annotations may be null; kustomize refuses an
// empty list there as any other).
func mappings(n *yaml3.Node) bool {
	if n.Kind != yaml3.MappingNode {
		return false
	}
	m := field(n, kyaml.MetadataField)
	if m == nil {
		return true
	}
	if m.Kind != yaml3.MappingNode {
		return false
	}
	for _, f := range []string{kyaml.LabelsField, kyaml.AnnotationsField} {
		if v := field(m, f); v != nil && v.Kind != yaml3.MappingNode && v.Tag != kyaml.NodeTagNull {
			return false
		}
	}
	return true
}

// plainTree reports whether a YAML tree has nothing kio's reader
// resolves: no anchor, alias or merge key.
func plainTree(n *yaml3.Node) bool {
	if n.Anchor != "" || n.Kind == yaml3.AliasNode || n.Tag == "!!merge" {
		return false
	}
	for _, c := range n.Content {
		if !plainTree(c) {
			return false
		}
	}
	return true
}

// annotateOrigin annotates a resource with the file it came from, as
// buildMetadata originAnnotations does: the path as kustomize joins it to
// the kustomization's, cleaned ("./a.yaml" is "a.yaml").
func annotateOrigin(r *resource.Resource, file string) error {
	origin, err := (&resource.Origin{Path: path.Clean(file)}).String()
	if err != nil {
		return err
	}
	return r.PipeE(kyaml.SetAnnotation(originAnnotation, origin))
}
