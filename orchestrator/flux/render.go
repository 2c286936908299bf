package flux

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/fluxcd/pkg/kustomize"
	fluxfs "github.com/fluxcd/pkg/kustomize/filesys"
	yaml3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/regularfile"
	"github.com/strata-iac/strata/internal/suggest"
	"github.com/strata-iac/strata/orchestrator/checkout"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/rendercache"
	"github.com/strata-iac/strata/orchestrator/yamllimits"
)

// originAnnotation is the annotation kustomize's buildMetadata
// originAnnotations puts on every object: the file it came from.
const originAnnotation = "config.kubernetes.io/origin"

// renderedObject is one object a kustomize build produced.
type renderedObject struct {
	// File is the file the object came from, relative to the root; for a
	// generated object, the kustomization file whose generator made it.
	File string
	// Object is the object, as kustomize rendered it (origin annotation
	// removed unless the build asked for it).
	Object map[string]any
	// res is kustomize's resource as built, which substitution works on,
	// as kustomize-controller's does; nil once decryption changed Object,
	// and once substitution is done (see dropResources).
	res *resource.Resource
	// Private is set on a Secret that was SOPS-encrypted in the
	// repository: its values are secrets, and must not be shown.
	Private bool
	// Failed is set on an object that could not be decrypted: it holds no
	// usable values, and a problem says why.
	Failed bool
	// generated is set on an object a generator made.
	generated bool
	// noKey is set on a Secret that strata could not decrypt for want of
	// a key (or of strata-sops), where Flux in the cluster holds one: the
	// plain Secret exists there, and is read from the inputs instead.
	noKey bool
	// substituted is set on a Terraform object that held a variable
	// postBuild substitution replaced, which an input not at hand may
	// have set.
	substituted bool
	// decoded is what decodeObject made of an object of the entry
	// directory when it was collected, whose Object is then let go of
	// (predecode).
	decoded *predecoded
}

// predecoded is decodeObject's answer for one object.
type predecoded struct {
	d decoded
	p *diag.Problem
	// file and obj are the object as collected, held until it is
	// decoded behind (decodeBehind), and done says it is.
	file string
	obj  map[string]any
	done bool
}

// build runs kustomize on dir (relative to the root) the way
// kustomize-controller builds a Flux Kustomization's spec.path: Flux's
// generator applies the Kustomization's spec (patches, images, components,
// namePrefix, targetNamespace, …) to the directory's kustomization file,
// or makes one listing every manifest under the directory when there is
// none, and krusty builds it, reading nothing outside the repository.
// k is the Flux Kustomization, nil for the entry directory;
// rules say what of the checkout its source's artifact leaves out (nil:
// nothing, an environment read from a cluster). files, when set, replaces the generated kustomization's resources (the
// entry directory's top-level files). Nothing is written to the
// repository: the generated kustomization file lives in memory only.
//
// The objects of a Kustomization's build are decrypted as its
// spec.decryption says (see decryptObject); those of the entry directory
// are left to readEntry, which finds the Kustomization that builds it.
func (l *loader) build(dir string, k *kustomization, rules *checkout.Rules, files []string, owner string) ([]renderedObject, *diag.Problem) {
	entry := k == nil
	gen := k.generating()
	abs := l.abs(dir)
	if l.rec != nil {
		// Flux's generator reads the directory from disk itself: every
		// manifest under it, and the components it checks for.
		l.rec.Probe(rendercache.Tree, abs)
		for _, c := range gen.components {
			l.rec.Probe(rendercache.Stat, filepath.Join(abs, filepath.FromSlash(c)))
		}
	}
	disk, err := l.diskFS()
	if err != nil {
		return nil, &diag.Problem{File: dir, Object: owner, Message: fmt.Sprintf("kustomize build of %s: %v", dir, err)}
	}
	if rules != nil {
		disk = artifactFS{FileSystem: disk, rules: rules}
	}
	if l.rec != nil {
		disk = recordingFS{FileSystem: disk, rec: l.rec}
	}
	fsys := &checkedFS{FileSystem: disk, l: l, virtual: map[string][]byte{}, rules: rules}
	if elideWide {
		fsys.elision = newElision()
	}
	before := len(l.problems)
	// scanned are the files Flux's generator lists, left those it would
	// list but the artifact leaves out.
	var scanned, left []string
	if files == nil {
		// The files a plain build reads it checks as it reads them, as
		// checkScanned would: their contents are checked here only for
		// a build that is not plain, before kustomize reads them.
		var p *diag.Problem
		if scanned, left, p = l.checkScanned(abs, owner, rules, false); p != nil {
			_, _, p = l.checkScanned(abs, owner, rules, true)
			return nil, p
		}
	}
	if objs, p, ok := l.buildPlainDir(dir, abs, entry, gen, fsys, files, scanned, owner); ok {
		return objs, p
	}
	if files == nil {
		if _, _, p := l.checkScanned(abs, owner, rules, true); p != nil {
			return nil, p
		}
	}
	var manifest []byte
	var kfile string
	if files != nil {
		kfile = filepath.Join(abs, "kustomization.yaml")
		manifest, err = yaml.Marshal(kustypes.Kustomization{
			TypeMeta:  kustypes.TypeMeta{APIVersion: kustypes.KustomizationVersion, Kind: kustypes.KustomizationKind},
			Resources: files,
		})
	} else {
		flux := unstructured.Unstructured{Object: k.fluxMap()}
		generator := kustomize.NewGenerator(l.root, flux)
		if len(left) > 0 {
			// The generator lists the directory from disk: it is told
			// to leave out what is not in the artifact.
			generator = kustomize.NewGeneratorWithIgnore(l.root, ignoreFiles(abs, left), flux)
		}
		manifest, kfile, _, err = generator.GenerateManifest(abs)
	}
	if err == nil {
		manifest, err = withOrigins(manifest)
	}
	if err != nil {
		return nil, l.buildProblem(dir, owner, err, before, fsys)
	}
	manifest = l.fixDeprecated(l.relPath(kfile), manifest)
	manifest = l.remoteResources(fsys, kfile, manifest)
	fsys.virtual[kfile] = manifest
	if gen.decrypt {
		fsys.owner = owner
		fsys.sources = generatorSources(fsys, l.root, abs)
	}
	build := krustyBuild
	if entry {
		build = buildInParts
	}
	beforeBuild := len(l.problems)
	resources, err := l.buildFast(fsys, abs, kfile, entry, build)
	if e := fsys.elision; e != nil && len(e.mappings) > 0 && l.ctx.Err() == nil {
		if err == nil {
			err = e.restore(resources)
		}
		if err != nil {
			// The build changed or needed a mapping read past kustomize:
			// build again with the mappings themselves, when kustomize
			// can read them.
			if w := e.widest(); w.keys > MaxMappingKeys {
				why := "this build changes it, so kustomize must read it"
				if !errors.Is(err, errTouched) {
					why = fmt.Sprintf("the build failed with it read past kustomize (%v), so kustomize must read it", l.relError(err))
				}
				p := widthProblem(w.file, w.path, 0, w.keys, why)
				p.Object = owner
				return nil, &p
			}
			l.problems = l.problems[:beforeBuild]
			fsys.elision = nil
			resources, err = build(l.ctx, fsys, abs, kfile)
		}
	}
	if err != nil && l.ctx.Err() != nil {
		// Stopped, not broken: the loader returns l.stopped().
		return nil, nil
	}
	if err != nil {
		return nil, l.buildProblem(dir, owner, err, before, fsys)
	}
	return l.collect(dir, abs, entry, gen, fsys, resources, nil, before, owner)
}

// collect turns the resources of a build of dir into rendered objects:
// each with the file it came from, its origin annotation removed unless
// the Kustomization's buildMetadata asks for it, and decrypted as its
// spec.decryption says (not those of the entry directory). origins, when
// set, are the files the resources came from, relative to abs (a plain
// build's); otherwise their origin annotations say.
func (l *loader) collect(dir, abs string, entry bool, gen generating, fsys *checkedFS, resources []*resource.Resource, origins []string, before int, owner string) ([]renderedObject, *diag.Problem) {
	var out []renderedObject
	for i, r := range resources {
		file := dir
		generated := false
		if origins != nil {
			file = l.relPath(filepath.Join(abs, filepath.FromSlash(origins[i])))
		} else if o, err := r.GetOrigin(); err == nil && o != nil {
			switch {
			case o.Path != "" && o.Repo == "":
				file = l.relPath(filepath.Join(abs, filepath.FromSlash(o.Path)))
			case o.ConfiguredIn != "":
				file = l.relPath(filepath.Join(abs, filepath.FromSlash(o.ConfiguredIn)))
				generated = true
			}
		}
		if a := r.GetAnnotations(); !gen.origins && a[originAnnotation] != "" {
			delete(a, originAnnotation)
			if err := l.setAnnotations(r, a); err != nil {
				return nil, &diag.Problem{File: file, Object: owner, Message: fmt.Sprintf("kustomize build of %s: %v", dir, err)}
			}
		}
		m, err := objectMap(r)
		if err != nil {
			if l.reported(file, before) {
				// The file's own check said what is wrong with it.
				continue
			}
			return nil, &diag.Problem{File: file, Object: owner, Message: fmt.Sprintf("kustomize build of %s: %v", dir, err), Fix: "correct the object in " + file}
		}
		if p := conventions(file, owner, m); p != nil {
			return nil, p
		}
		ro := renderedObject{File: file, Object: m, res: r, generated: generated}
		if entry {
			// Only a Kustomization's objects are substituted, from res:
			// the entry directory's let go of their YAML trees now, and
			// of their maps when nothing reads them (predecode).
			ro.res = nil
			l.predecode(&ro)
		}
		if !entry {
			if p := l.decryptObject(&ro, gen.decrypt, owner, fsys); p != nil {
				if ro.noKey {
					// Not the build's problem: what reads the Secret
					// waits for it (loader.secret).
					l.warn(*p)
				} else {
					l.problem(*p)
				}
			}
		}
		out = append(out, ro)
	}
	return out, nil
}

// predecode decodes an object of the entry directory as it is collected,
// and lets go of its map, when nothing reads the map before the object is
// registered: readEntry first decrypts the entry's Secrets and encrypted
// objects, with the keys of the Kustomization that applies the entry,
// found among them, and registerApp expands the Flux Operator's
// ResourceSets and counts the kinds strata does not read. At 10,000
// stacks the entry's maps, held until each group of it is built, were the
// peak of the heap of a load with substitution. The tests that keep what
// was rendered keep the maps. Within readEntry the object is decoded
// behind (decodeBehind), and its predecoded is filled in once readEntry
// waits for it.
func (l *loader) predecode(o *renderedObject) {
	if l.keepRendered || decryption.IsEncrypted(o.Object) {
		return
	}
	// A ResourceSet is of a kind strata does not read.
	u := unstructured.Unstructured{Object: o.Object}
	if u.GetKind() == kindSecret || !reads(u.GetAPIVersion(), u.GetKind()) || l.appliesEntry(o.Object) {
		return
	}
	if l.behind != nil {
		o.decoded, o.Object = l.behind.add(o.File, o.Object), nil
		return
	}
	d, p := decodeObject(o.File, o.Object, &l.shared)
	if p == nil && d.Skipped != "" {
		return
	}
	o.decoded, o.Object = &predecoded{d: d, p: p}, nil
}

// conventions is the problem of a built object without an apiVersion,
// a kind or a name: kustomize builds it, and kustomize-controller then
// fails the whole build ("failed to decode Kubernetes apiVersion, kind
// and name"); nil when it has all three. A top-level key a letter or
// two from a missing one is named as its likely misspelling.
func conventions(file, owner string, m map[string]any) *diag.Problem {
	var missing []string
	fix := fmt.Sprintf("add the missing field(s) to the object in %s", file)
	for _, f := range []string{"apiVersion", "kind"} {
		if s, _ := m[f].(string); s != "" {
			continue
		}
		missing = append(missing, f)
		if c, d := suggest.Closest(f, slices.Sorted(maps.Keys(m))); d > 0 && d <= 2 {
			fix = fmt.Sprintf("the key %s looks like a misspelt %s: rename it in %s", c, f, file)
		}
	}
	md, _ := m["metadata"].(map[string]any)
	if s, _ := md["name"].(string); s == "" {
		missing = append(missing, "metadata.name")
	}
	if len(missing) == 0 {
		return nil
	}
	kind, _ := m["kind"].(string)
	name, _ := md["name"].(string)
	return &diag.Problem{
		File:    file,
		Object:  owner,
		Message: fmt.Sprintf("the object %s/%s has no %s, so Flux fails the whole build (failed to decode Kubernetes apiVersion, kind and name)", cmp.Or(kind, "?"), cmp.Or(name, "?"), strings.Join(missing, " or ")),
		Fix:     fix,
	}
}

// dropResources lets go of kustomize's resources of rendered objects once
// substitution, the only step that reads them, is done: each holds the
// object's whole YAML node tree, which for a thousand stacks is the
// larger part of the loader's memory. It returns objs.
func dropResources(objs []renderedObject) []renderedObject {
	for i := range objs {
		objs[i].res = nil
	}
	return objs
}

// reported reports whether a problem of file was recorded since the
// problem count was before.
func (l *loader) reported(file string, before int) bool {
	return slices.ContainsFunc(l.problems[before:], func(p diag.Problem) bool { return p.File == file })
}

// withOrigins adds buildMetadata originAnnotations to a kustomization file,
// so that every built object says which file it came from.
func withOrigins(manifest []byte) ([]byte, error) {
	var k kustypes.Kustomization
	if err := yaml.Unmarshal(manifest, &k); err != nil {
		return nil, err
	}
	if !slices.Contains(k.BuildMetadata, kustypes.OriginAnnotations) {
		k.BuildMetadata = append(k.BuildMetadata, kustypes.OriginAnnotations)
	}
	return yaml.Marshal(k)
}

// relPath turns an absolute path under the root into a slash-separated path
// relative to it.
func (l *loader) relPath(abs string) string {
	r, err := filepath.Rel(l.root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	// Rel returns the tail of abs, which would keep all of abs for as
	// long as the object's File: at 10,000 stacks a megabyte of absolute
	// paths at the end of the load.
	return strings.Clone(filepath.ToSlash(r))
}

// Messages of kustomize that strata turns into problems of their own.
var (
	decodeFailed   = regexp.MustCompile(`failed to decode Kubernetes YAML from (\S+?):? `)
	missingFile    = regexp.MustCompile(`accumulating resources from '([^']*)': open (\S+): no such file or directory`)
	noKustomize    = regexp.MustCompile(`unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '([^']*)'`)
	notMetadata    = regexp.MustCompile(`accumulating resources from '([^']*)': missing Resource metadata`)
	alreadyDefined = regexp.MustCompile(`may not add resource with an already registered id: ([^.\s]+)\.[^/\s]*/([^.\s\[]+)`)
)

// buildProblem maps a kustomize error onto a problem: the paths it names
// are made relative to the root, and the common mistakes get a message and
// a fix of their own. When the files read during the build already
// reported what is wrong (malformed YAML, a duplicate key, a remote base),
// the build's own error adds nothing and is dropped.
func (l *loader) buildProblem(dir, owner string, err error, before int, fsys *checkedFS) *diag.Problem {
	if len(l.problems) > before {
		return nil
	}
	msg := l.relError(err)
	if m := decodeFailed.FindStringSubmatch(msg); m != nil {
		if b, rerr := regularfile.ReadFile(l.abs(m[1]), MaxManifestBytes); rerr == nil {
			docs, ps := decodeYAML(m[1], b)
			if len(ps) > 0 {
				for _, p := range ps[1:] {
					l.problem(p)
				}
				return &ps[0]
			}
			if p := notObject(m[1], docs); p != nil {
				p.Object = owner
				return p
			}
		}
	}
	if m := notMetadata.FindStringSubmatch(msg); m != nil {
		if p := fsys.notObject(m[1]); p != nil {
			p.Object = owner
			return p
		}
	}
	if m := missingFile.FindStringSubmatch(msg); m != nil {
		kf := l.kustomizeFileIn(path.Dir(m[2]))
		return &diag.Problem{
			File:    kf,
			Object:  owner,
			Message: fmt.Sprintf("resources names %q, which does not exist", m[1]),
			Fix:     fmt.Sprintf("create %s or remove it from the resources of %s", m[2], kf),
		}
	}
	if m := noKustomize.FindStringSubmatch(msg); m != nil {
		return &diag.Problem{
			File:    m[1],
			Object:  owner,
			Message: fmt.Sprintf("%s/ is listed as a resource but has no kustomization file", m[1]),
			Fix:     fmt.Sprintf("add a kustomization.yaml to %s/ that lists its manifests, or list the files themselves", m[1]),
		}
	}
	if m := alreadyDefined.FindStringSubmatch(msg); m != nil {
		p := &diag.Problem{
			File:    dir,
			Object:  owner,
			Message: fmt.Sprintf("%s/%s is defined twice under %s/", m[1], m[2], dir),
			Fix:     fmt.Sprintf("rename or remove one of the two %s objects named %s", m[1], m[2]),
		}
		if at := fsys.defining(m[1], m[2]); len(at) > 1 {
			p.File = strings.SplitN(at[1], ":", 2)[0]
			p.Message += ": in " + strings.Join(at, " and ")
			p.Fix = fmt.Sprintf("rename or remove one of the %s objects named %s, in %s", m[1], m[2], strings.Join(at, " and "))
		}
		return p
	}
	var ce *fluxfs.ConstraintError
	fix := fmt.Sprintf("correct the manifests under %s/ so that `kustomize build %s` succeeds", dir, dir)
	if errors.As(err, &ce) {
		fix = fmt.Sprintf("refer only to files inside the repository from %s/", dir)
	}
	return &diag.Problem{
		File:    dir,
		Object:  owner,
		Message: "kustomize build failed: " + msg,
		Fix:     fix,
	}
}

// relError is an error's message with the paths under the root made
// relative to it.
func (l *loader) relError(err error) string {
	msg := strings.ReplaceAll(err.Error(), l.root+string(filepath.Separator), "")
	return strings.ReplaceAll(msg, l.root, ".")
}

// kustomizeFileIn returns the kustomization file of a directory (relative
// to the root), or the directory when it has none.
func (l *loader) kustomizeFileIn(dir string) string {
	for _, name := range kustomizeFileNames {
		if fi, err := os.Stat(l.abs(path.Join(dir, name))); err == nil && !fi.IsDir() {
			return path.Join(dir, name)
		}
	}
	return dir
}

// fixDeprecated moves the deprecated fields of a kustomization file
// (bases, commonLabels, patchesStrategicMerge, …) to their successors,
// exactly as kustomize does before it builds, so that kustomize has
// nothing to warn of: its own warnings go to the process's stderr. Each
// warning is kept, naming the file, for strata's log (Deprecations). A
// file without deprecated fields is handed on as it is.
func (l *loader) fixDeprecated(file string, b []byte) []byte {
	var k kustypes.Kustomization
	if k.Unmarshal(b) != nil {
		return b // kustomize reports it
	}
	warnings := k.CheckDeprecatedFields()
	if warnings == nil || len(*warnings) == 0 {
		return b
	}
	k.FixKustomization()
	fixed, err := yaml.Marshal(k)
	if err != nil {
		return b
	}
	for _, w := range *warnings {
		msg := strings.TrimSpace(strings.TrimPrefix(w, "# Warning:"))
		p := diag.Problem{File: file, Message: "kustomize: " + msg, Fix: "run `kustomize edit fix` in " + path.Dir(file)}
		if !slices.Contains(l.env.Deprecations, p) {
			l.env.Deprecations = append(l.env.Deprecations, p)
		}
	}
	return fixed
}

// checkedFS is the file system kustomize reads the repository through: the
// repository on disk, confined to the root, with the generated
// kustomization file laid over it in memory. It checks every YAML file it
// hands out: a key given twice in a mapping, or malformed YAML, is a
// problem of that file.
type checkedFS struct {
	filesys.FileSystem
	l *loader
	// rules say what of the checkout the build's source leaves out (nil:
	// nothing).
	rules *checkout.Rules
	// virtual holds files by absolute path that exist only in memory.
	virtual map[string][]byte
	// sources are the files a build with decryption decrypts as it reads
	// them (see generatorSources), by absolute path; owner is that
	// build's Kustomization; decrypted says one was decrypted, failed
	// that one could not be.
	sources           map[string]sourceUse
	owner             string
	decrypted, failed bool
	// noKey says what failed, failed for want of a key (lacksKey).
	noKey bool
	// mu guards everything a build reads through fsys from the loader;
	// detached says the build was abandoned (see krustyBuild).
	mu       sync.Mutex
	detached bool
	// objects counts the documents the current krusty run read, files
	// the manifest files.
	objects, files int
	// elision holds the wide mappings read past kustomize (see elide.go);
	// nil when the build reads every mapping itself.
	elision *elision
	// docs, when set, keeps the documents of each manifest read as
	// written, by absolute path, for a plain build (see buildPlain);
	// notPlain says a plain build of it failed (undoPlain).
	docs     map[string][]*yaml3.Node
	notPlain bool
	// notObjects are the manifests read with a document that is not an
	// object (notObject), by path relative to the root; read are all the
	// manifests read, in order (defining).
	notObjects map[string]diag.Problem
	read       []string
}

// notObject returns the problem of a manifest this build read whose
// document is not an object, for kustomize's "accumulating resources
// from 'name': missing Resource metadata": name is relative to the
// kustomization file that lists it, so the manifest is the one whose
// path ends with it (the first of two, in order of path); nil when none
// does.
func (f *checkedFS) notObject(name string) *diag.Problem {
	f.mu.Lock()
	defer f.mu.Unlock()
	name = path.Clean(filepath.ToSlash(name))
	for strings.HasPrefix(name, "../") {
		name = strings.TrimPrefix(name, "../")
	}
	for _, rel := range slices.Sorted(maps.Keys(f.notObjects)) {
		if rel == name || strings.HasSuffix(rel, "/"+name) {
			p := f.notObjects[rel]
			return &p
		}
	}
	return nil
}

// defining returns where the manifests this build read define an object
// of kind and name, as "file:line" in the order read: what kustomize's
// "already registered id" does not say.
func (f *checkedFS) defining(kind, name string) []string {
	f.mu.Lock()
	read := slices.Clone(f.read)
	f.mu.Unlock()
	var at []string
	seen := map[string]bool{}
	for _, rel := range read {
		if isKustomizeFile(rel) || seen[rel] {
			continue
		}
		seen[rel] = true
		b, err := regularfile.ReadFile(f.l.abs(rel), MaxManifestBytes)
		if err != nil {
			continue
		}
		docs, _ := decodeYAML(rel, b)
		for _, d := range docs {
			n := d
			if n.Kind == yaml3.DocumentNode && len(n.Content) > 0 {
				n = n.Content[0]
			}
			if k := field(n, "kind"); k == nil || k.Value != kind {
				continue
			}
			if nm := field(field(n, "metadata"), "name"); nm != nil && nm.Value == name {
				at = append(at, fmt.Sprintf("%s:%d", rel, n.Line))
			}
		}
	}
	return at
}

// detach cuts fsys off from its loader once its build is abandoned: every
// read after it fails, and the read under way, if any, is waited for.
func (f *checkedFS) detach() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.detached = true
}

// setVirtual sets a file that exists only in memory.
func (f *checkedFS) setVirtual(p string, b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.virtual[p] = b
}

// errDetached is what a read of an abandoned build gets.
var errDetached = errors.New("the build was abandoned")

// Exists reports whether a file exists in memory or on disk.
func (f *checkedFS) Exists(p string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.detached {
		return false
	}
	if _, ok := f.virtual[filepath.Clean(p)]; ok {
		return true
	}
	return f.FileSystem.Exists(p)
}

// IsDir reports whether a path is a directory on disk.
func (f *checkedFS) IsDir(p string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.detached {
		return false
	}
	if _, ok := f.virtual[filepath.Clean(p)]; ok {
		return false
	}
	return f.FileSystem.IsDir(p)
}

// ReadFile reads a file and checks it.
func (f *checkedFS) ReadFile(p string) ([]byte, error) { return f.readChecked(p, false) }

// readPlain is ReadFile of a resource a plain build lists, with one stat
// where IsDir and ReadFile took two: a directory (which krusty builds as
// a base), or anything else but a regular file, fails with errNotPlain,
// and nothing is said of it here. The build krusty makes of it then says
// what it says.
func (f *checkedFS) readPlain(p string) ([]byte, error) { return f.readChecked(p, true) }

// readChecked is ReadFile, or readPlain when plain is set.
func (f *checkedFS) readChecked(p string, plain bool) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.detached {
		return nil, errDetached
	}
	if b, ok := f.virtual[filepath.Clean(p)]; ok {
		return b, nil
	}
	if err := f.l.ctx.Err(); err != nil {
		return nil, err
	}
	rel := f.l.relPath(p)
	manifest := isManifest(p) && !strings.HasPrefix(rel, "../")
	fi, err := f.l.ahead.statRegular(p)
	if errors.Is(err, regularfile.ErrNotRegular) {
		// A named pipe would block the read for ever. (Any other error,
		// the read below says as kustomize expects it.)
		if plain {
			return nil, errNotPlain
		}
		if manifest {
			f.l.problem(irregularProblem(rel, err))
		}
		return nil, err
	}
	if manifest && err == nil && fi.Size() > MaxManifestBytes {
		f.l.problem(sizeProblem(rel, fi.Size()))
		return nil, fmt.Errorf("read %s: larger than %d bytes", rel, MaxManifestBytes)
	}
	if f.files++; manifest && f.files > MaxBuildFiles {
		f.l.problem(filesProblem(f.l.relPath(filepath.Dir(p)), "files listed by kustomization files"))
		return nil, fmt.Errorf("read %s: more than %d files", rel, MaxBuildFiles)
	}
	b, err := f.FileSystem.ReadFile(p)
	if err == nil {
		b, err = f.decryptSource(p, b)
	}
	if err != nil || !manifest {
		return b, err
	}
	docs, ps := f.l.ahead.decode(p, rel, b)
	for _, pr := range ps {
		f.l.problem(pr)
	}
	if docs == nil {
		return b, nil
	}
	f.read = append(f.read, rel)
	if p := notObject(rel, docs); p != nil {
		// A patch file may well be a sequence: only a build that fails
		// for it says so (see buildProblem).
		if f.notObjects == nil {
			f.notObjects = map[string]diag.Problem{}
		}
		f.notObjects[rel] = *p
	}
	e := f.elision
	if isKustomizeFile(p) {
		e = nil
	}
	for _, d := range docs {
		if !(d.Kind == yaml3.DocumentNode && len(d.Content) == 0) {
			f.objects++
		}
	}
	if f.objects > MaxBuildObjects && !isKustomizeFile(p) {
		f.l.problem(countProblem(rel, f.objects))
		return nil, fmt.Errorf("read %s: more than %d objects", rel, MaxBuildObjects)
	}
	shaped, ps := readShaped(rel, b, docs, e)
	for _, pr := range ps {
		f.l.problem(pr)
	}
	if len(ps) > 0 {
		return nil, fmt.Errorf("read %s: %s", rel, ps[0].Message)
	}
	if f.docs != nil && len(shaped) == len(b) && (len(b) == 0 || &shaped[0] == &b[0]) {
		// Read as written: a plain build takes the documents as decoded.
		f.docs[filepath.Clean(p)] = docs
	}
	b = shaped
	if isKustomizeFile(p) {
		b = f.l.fixDeprecated(rel, b)
		b = f.l.remoteResources(f, p, b)
	}
	return b, nil
}

// counted counts a read of a kustomization file (one document) that a
// build makes again, without reading it, as ReadFile would count it;
// false when the build is then past its limit of files (ReadFile says
// so).
func (f *checkedFS) counted(p string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.detached {
		return false
	}
	f.files++
	f.objects++
	f.read = append(f.read, f.l.relPath(p))
	return f.files <= MaxBuildFiles
}

// isManifest reports whether a file is YAML kustomize reads.
func isManifest(p string) bool {
	return isYAML(p) || isKustomizeFile(p)
}

// isKustomizeFile reports whether a file is a kustomization file.
func isKustomizeFile(p string) bool {
	return slices.Contains(kustomizeFileNames, path.Base(filepath.ToSlash(p)))
}

// kustomizeFileNames are the names kustomize looks for in a directory.
var kustomizeFileNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// buildMu serialises kustomize builds, as fluxcd/pkg/kustomize does:
// kustomize is not safe for concurrent builds.
var buildMu sync.Mutex

// krustyOptions are the options of every krusty build: those of
// fluxcd/pkg/kustomize's Build.
func krustyOptions() *krusty.Options {
	return &krusty.Options{
		LoadRestrictions: kustypes.LoadRestrictionsNone,
		PluginConfig:     kustypes.DisabledPluginConfig(),
	}
}

// krustyBuild builds a directory with krusty and exactly the options of
// fluxcd/pkg/kustomize's Build (load restrictions none, only the builtin
// plugins), recovering from a kustomize panic as it does. It does not
// reset kustomize's global OpenAPI schema before each build, which costs a
// parse of the whole Kubernetes schema every time: strata's builds never
// set an openapi schema of their own. kfile, the directory's kustomization
// file, is not read: kustomize finds it in dir.
//
// kustomize takes no context, so the build runs on a goroutine of its own
// and krustyBuild returns as soon as ctx is done: fsys is then detached,
// so that whatever the build still reads fails at once and touches
// nothing of the loader's.
func krustyBuild(ctx context.Context, fsys *checkedFS, dir, kfile string) ([]*resource.Resource, error) {
	type result struct {
		rs  []*resource.Resource
		err error
	}
	done := make(chan result, 1)
	go func() {
		rs, err := runKrusty(ctx, fsys, dir)
		done <- result{rs, err}
	}()
	select {
	case r := <-done:
		return r.rs, r.err
	case <-ctx.Done():
		fsys.detach()
		return nil, fmt.Errorf("kustomize build of %s: %w", filepath.Base(dir), context.Cause(ctx))
	}
}

// buildFast builds a plain kustomization (see plainResources) without
// krusty, and anything else, or a plain one that krusty must explain,
// with build.
func (l *loader) buildFast(fsys *checkedFS, abs, kfile string, entry bool, build func(context.Context, *checkedFS, string, string) ([]*resource.Resource, error)) ([]*resource.Resource, error) {
	files, ok := plainResources(fsys.virtual[kfile])
	if !ok || !plainBuilds || fsys.notPlain {
		return build(l.ctx, fsys, abs, kfile)
	}
	before := len(l.problems)
	rs, origins, err := l.buildPlain(l.ctx, fsys, abs, files, entry, map[resid.ResId]bool{})
	if err == nil {
		// What krusty's origin annotations would say (collect reads them).
		for i, r := range rs {
			if annotateOrigin(r, origins[i]) != nil {
				err = errNotPlain
				break
			}
		}
	}
	if !errors.Is(err, errNotPlain) {
		if err == nil {
			l.plainBuilt++
		}
		return rs, err
	}
	l.undoPlain(fsys, before)
	return build(l.ctx, fsys, abs, kfile)
}

// stopped is the error of a load whose ctx is done, saying why (the
// signal received, say), or nil.
func (l *loader) stopped() error {
	err := l.ctx.Err()
	if cause := context.Cause(l.ctx); err != nil && cause != err {
		return fmt.Errorf("stopped (%v): %w", cause, err)
	}
	return err
}

// runKrusty runs one krusty build, one at a time.
func runKrusty(ctx context.Context, fsys *checkedFS, dir string) (_ []*resource.Resource, err error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered from kustomize build panic: %v", r)
		}
	}()
	fsys.mu.Lock()
	fsys.objects, fsys.files = 0, 0
	fsys.mu.Unlock()
	k := krusty.MakeKustomizer(krustyOptions())
	rm, err := k.Run(fsys, dir)
	if err != nil {
		return nil, err
	}
	return rm.Resources(), nil
}

// partSize is how many resources one kustomize build of a part of the
// entry directory lists at most.
const partSize = 32

// buildInParts builds a directory whose kustomization file (kfile, in
// memory) only lists resources, partSize resources at a time, and checks
// that no two parts render the same object, as one build would. It
// renders the same objects as one build, though not in kustomize's
// order. kustomize checks every resource it adds against each one added
// before, which made one build of an entry directory of a thousand
// Kustomizations take most of a reconcile's time; the parts keep that
// check linear. A kustomization file that does more than list resources
// is built whole.
func buildInParts(ctx context.Context, fsys *checkedFS, dir, kfile string) ([]*resource.Resource, error) {
	manifest := fsys.virtual[kfile]
	var k kustypes.Kustomization
	if err := yaml.Unmarshal(manifest, &k); err != nil || len(k.Resources) <= partSize {
		return krustyBuild(ctx, fsys, dir, kfile)
	}
	rest := k
	rest.TypeMeta, rest.Resources, rest.BuildMetadata = kustypes.TypeMeta{}, nil, nil
	if !reflect.DeepEqual(rest, kustypes.Kustomization{}) {
		return krustyBuild(ctx, fsys, dir, kfile)
	}
	defer fsys.setVirtual(kfile, manifest)
	var out []*resource.Resource
	seen := map[resid.ResId]bool{}
	for part := range slices.Chunk(k.Resources, partSize) {
		k.Resources = part
		b, err := yaml.Marshal(k)
		if err != nil {
			return nil, err
		}
		fsys.setVirtual(kfile, b)
		rs, err := krustyBuild(ctx, fsys, dir, kfile)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			id := r.CurId()
			// kustomize's ResId.Equals: the same group, version, kind and
			// name in the same effective namespace.
			key := resid.NewResIdWithNamespace(id.Gvk, id.Name, id.EffectiveNamespace())
			if seen[key] {
				return nil, fmt.Errorf("may not add resource with an already registered id: %s", id)
			}
			seen[key] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// scannedMin is the smallest file checkScanned decodes for its width: a
// mapping of more than MaxMappingKeys keys takes more than 60 KB.
const scannedMin = 32 << 10

// checkScanned checks, for a directory without a kustomization file, the
// files Flux's generator reads to list them: every .yaml and .yml file
// under it, but in directories with a kustomization file of their own.
// The generator reads each with kustomize's reader, which neither stops
// when asked nor bounds what a file's aliases expand to, so each is
// checked first, from disk:
//   - a path that is no regular file (a named pipe blocks its reader for
//     ever, a symbolic link loop fails) is a problem;
//   - more than MaxBuildFiles files is a problem;
//   - a file that may hold aliases or deep nesting is decoded and held to
//     the limits of every manifest (yamllimits.Check), and one of scannedMin
//     bytes or more to MaxMappingKeys.
//
// It returns the resources Flux's generator lists, as it lists them
// ("./" and the path under abs, in the walk's order), when they are all
// files; nil when abs has a kustomization file, or a directory under it
// has one (the generator lists it as a base). Without read, it only
// walks: no file is read, and only the first two checks are made.
func (l *loader) checkScanned(abs, owner string, rules *checkout.Rules, read bool) (list, left []string, _ *diag.Problem) {
	if l.kustomizeFileIn(l.relPath(abs)) != l.relPath(abs) {
		return nil, nil, nil
	}
	var found *diag.Problem
	files := 0
	list, bases := []string{}, false
	fail := func(p diag.Problem) error {
		p.Object = owner
		found = &p
		return filepath.SkipAll
	}
	_ = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found != nil || l.ctx.Err() != nil {
			return filepath.SkipAll
		}
		if rules != nil && p != abs && rules.ExcludedAbs(p, d.IsDir()) != "" {
			if d.IsDir() {
				left = append(left, p)
				return filepath.SkipDir
			}
			if ext := filepath.Ext(p); ext == ".yaml" || ext == ".yml" {
				left = append(left, p)
			}
			return nil
		}
		if d.IsDir() {
			if p != abs && l.kustomizeFileIn(l.relPath(p)) != l.relPath(p) {
				bases = true
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		rel := l.relPath(p)
		list = append(list, "."+filepath.ToSlash(strings.TrimPrefix(p, abs)))
		if files++; files > MaxBuildFiles {
			return fail(filesProblem(l.relPath(abs), "it has no kustomization file, so Flux's generator lists every .yaml and .yml file under it"))
		}
		if d.Type()&fs.ModeType != 0 {
			if err := regularfile.Check(p); err != nil {
				return fail(irregularProblem(rel, err))
			}
		}
		if !read {
			return nil
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil
		}
		if fi.Size() > MaxManifestBytes {
			return fail(sizeProblem(rel, fi.Size()))
		}
		b, err := regularfile.ReadFile(p, MaxManifestBytes)
		if err != nil {
			return nil
		}
		wide := fi.Size() >= scannedMin
		if !wide && !mayExpand(b) {
			return nil
		}
		docs, _ := decodeYAML(rel, b)
		if ps := yamllimits.Check(rel, docs); len(ps) > 0 {
			return fail(ps[0])
		}
		if !wide {
			return nil
		}
		for _, doc := range docs {
			for _, w := range wideMappings(doc, true) {
				if w.keys > MaxMappingKeys {
					pr := widthProblem(rel, w.path, w.node.Line, w.keys, fmt.Sprintf("%s/ has no kustomization file, so Flux's generator reads every file under it with kustomize's reader to list it", l.relPath(abs)))
					pr.Fix = fmt.Sprintf("add a kustomization.yaml to %s/ listing its files (strata then reads the mapping past kustomize), or split %s of %s into objects of at most %d keys", l.relPath(abs), w.path, rel, MaxMappingKeys)
					return fail(pr)
				}
			}
		}
		return nil
	})
	if found != nil || bases {
		return nil, left, found
	}
	return list, left, nil
}

// mayExpand reports whether a small file may pass a limit of
// yamllimits.Check: only an
// anchor (and so an alias) makes a document expand, and only many
// brackets or deep indentation nest it past MaxNesting.
func mayExpand(b []byte) bool {
	if bytes.IndexByte(b, '&') >= 0 {
		return true
	}
	if bytes.Count(b, []byte("["))+bytes.Count(b, []byte("{")) > MaxNesting {
		return true
	}
	return bytes.Contains(b, []byte("\n"+strings.Repeat(" ", MaxNesting)))
}
