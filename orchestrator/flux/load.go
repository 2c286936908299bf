package flux

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/strata-iac/strata/internal/recovered"
	"github.com/strata-iac/strata/orchestrator/checkout"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/rendercache"
	"github.com/strata-iac/strata/orchestrator/tofucontroller"
)

// The names strata looks for in an environment directory.
const (
	// environmentsDir is the top-level directory of client environments.
	environmentsDir = "environments"
	// InitFile is the file at the environment's root holding the init
	// ConfigMap.
	InitFile = "init.yaml"
	// InitConfigMap is the name of the ConfigMap with the environment's
	// basic data (clientId, environment, environmentClass, …).
	InitConfigMap = "init"
	// VersionsFile is the conventional file of a group's versions.
	VersionsFile = "_versions.yaml"
	// VersionsConfigMap is the name of the ConfigMap with version_<svc> and
	// version_<svc>_tf keys.
	VersionsConfigMap = "service-versions"
)

// Load reads the environment whose entry point is dir (absolute or
// relative to the working directory) with everything it refers to, and
// validates all of it. The entry point is any directory Flux could
// reconcile: the seed layout's environments/<client>/<env>, a bootstrap
// clusters/<name>, or the directory of a single Flux Kustomization.
//
// The repository root is the root of the git work tree that holds dir (see
// findRoot). Paths in the model and in problems are relative to it and
// slash-separated.
//
// When the environment has problems, the error wraps a diag.Problems that
// lists every one of them, sorted (use errors.As to get it), and the
// returned Environment is the model as far as it could be built, for
// reporting only: it must not be run. Other errors (a directory that does
// not exist, an unreadable file, a cancelled ctx) come with a nil
// Environment.
func Load(ctx context.Context, dir string) (*environment.Environment, error) {
	l, err := read(ctx, dir)
	if err != nil {
		return nil, err
	}
	if ps := l.sortedProblems(); len(ps) > 0 {
		return l.env, fmt.Errorf("load environment %s: %w", l.dir, ps)
	}
	return l.env, nil
}

// keepRenderedKey, in a load's ctx, keeps the objects each build rendered
// in loader.rendered, for the tests that read them.
type keepRenderedKey struct{}

// read loads the environment and returns the loader with everything it
// read.
func read(ctx context.Context, dir string) (*loader, error) {
	root, rel, note, err := findRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("load environment %s: %w", dir, err)
	}
	return readAt(ctx, root, rel, note, nil)
}

// readAt loads the environment at rel under the repository root, with
// the note findRoot made, recording what it reads in rec when rec is set.
// A panic of the load is its error (recovered.Error), so that a command,
// the daemon or the controller goes on with the other environments.
func readAt(ctx context.Context, root, rel, note string, rec *rendercache.Recorder) (_ *loader, err error) {
	defer recovered.Catch(&err, "load environment "+rel)
	l := newLoader(ctx, root, rel)
	l.rec, l.checkout = rec, checkout.NewCache(root, rec)
	l.opts = optionsFrom(ctx)
	l.keepRendered = ctx.Value(keepRenderedKey{}) != nil
	l.isolate = true
	defer l.closeDecryptor()
	if _, err := l.load(); err != nil {
		return nil, fmt.Errorf("load environment %s: %w", rel, err)
	}
	if note != "" {
		l.env.Notes = append([]string{note}, l.env.Notes...)
	}
	return l, nil
}

// loader holds what has been read of one environment so far.
type loader struct {
	ctx  context.Context
	root string
	dir  string

	problems diag.Problems
	// configMaps and secrets hold the ConfigMaps and Secrets rendered, by
	// scope and name; scope "" is the entry directory's top level, any
	// other scope a group (see kustomization.Group).
	configMaps scoped[*configMap]
	secrets    scoped[*secret]
	// kustomizations are the Flux Kustomizations followed, by unit
	// (kustomization.unit).
	kustomizations map[string]*kustomization
	// repoObjects are the checkout's ConfigMaps and Secrets by
	// kind/name, found once a missing input is explained (inRepo).
	repoObjects map[string][]repoObject
	// apps are the objects each Kustomization brings in, by its unit.
	apps map[string]*app
	// rendered are the objects each build rendered, in order: by
	// Kustomization name, "" for the entry directory's own builds. Only
	// tests read them, so they are kept only when ctx asks for it
	// (keepRenderedKey): at 10,000 stacks they are half the load's heap.
	rendered     map[string][]renderedObject
	keepRendered bool
	// plainBuilt counts the builds made without krusty (plainbuild.go).
	plainBuilt int
	// plainKustomizations are plainKustomizationOf's answers, by the
	// kustomization file's content (plainKustomization).
	plainKustomizations map[plainKey]plainAnswer
	// plainComponents are the Components plain builds read, by
	// directory and artifact rules (plainComponent).
	plainComponents map[componentKey]componentAnswer
	// jsonPatches are the patches plain builds read, by text (jsonPatch).
	jsonPatches map[string]*jsonPatch
	// nonStrings are the annotation values written, each with whether
	// kustomize quotes it (nonString).
	nonStrings map[string]bool
	// targets are the compiled targets of those patches (target).
	targets map[kustypes.Selector]*patchTarget
	// moduleDirs are what the stacks' module directories hold, by
	// directory (moduleDirOf).
	moduleDirs map[string]moduleDir
	// shared are the labels and annotations of the objects decoded,
	// each distinct map once (stringMaps).
	shared stringMaps
	// env is the model being built.
	env *environment.Environment
	// stacks are the stacks built, with what they came from.
	stacks []*built
	// dec decrypts SOPS-encrypted objects with the machine's keys, and
	// decryptionSecrets with those of the Secret a Kustomization's
	// spec.decryption.secretRef names, by namespace/name (nil for one
	// strata finds nowhere); see decryptor. secretKeysAsked says a build
	// was given one of the latter, as dec says of the former.
	dec               *decryption.Decryptor
	decryptionSecrets map[string]*decryption.Decryptor
	secretKeysAsked   bool
	// rec, when set, records everything the render reads, for the
	// render cache (see LoadCached).
	rec *rendercache.Recorder
	// disk is the repository as every build reads it (see diskFS).
	disk filesys.FileSystem
	// ahead reads what the load is about to read (readAhead); nil
	// reads everything when asked.
	ahead *readAhead
	// behind decodes the entry directory's objects while it is read
	// (decodeBehind); nil outside readEntry.
	behind *decodeBehind
	// checkout are the artifact rules of the repository's sources, by
	// spec.ignore (rulesForRef).
	checkout *checkout.Cache
	// artifacts are, for an environment read from a cluster (see
	// LoadNamespace), the source-controller artifacts of the namespace's
	// sources, by "Kind/name", and those of other namespaces' sources, by
	// "Kind/namespace/name"; nil for a repository. crossNamespace allows a
	// sourceRef to name another namespace's.
	artifacts      map[string]environment.Artifact
	crossNamespace bool
	// outOfShard and shard are Namespace's: the objects another shard
	// reconciles, and this controller's selector, for the errors of the
	// objects that name them.
	outOfShard map[string]string
	shard      string

	// opts are the load's options (WithOptions).
	opts Options
	// isolate holds back, for a problem, only what Flux would: the
	// Kustomization it is in and what depends on it (isolate.go); for a
	// cluster's namespace (LoadNamespace with Isolate), the Terraform
	// object it is of and what depends on it, as the Tofu Controller does.
	isolate bool
	// unit and unitStack are the Kustomization and the stack being read,
	// which a problem recorded now belongs to (problem).
	unit, unitStack string
	// unset are the variables that postBuild substitution left empty in
	// each object, by objectKey: Flux substitutes an empty string for
	// them unless the object is a stack's (substitute.go).
	unset map[string][]string
	// inputs are the ConfigMaps and Secrets read from Options.Inputs,
	// by kind/namespace/name; a nil entry is one that was looked for and
	// is not there.
	inputs map[string]*inputObject
	// entry holds the Terraform objects and OCIRepositories of the entry
	// directory itself, which the Kustomization that applies it brings in
	// (adoptEntry).
	entry *app
	// unitNS is the namespace of the Kustomization or Terraform object
	// being read: where an input it names is looked for in the cluster.
	unitNS string
	// names names the stacks and their contracts by namespace and name
	// (stacknames.go). The Secrets that stacks write
	// (writeOutputsToSecret) are never read from the inputs, where the
	// Tofu Controller has written them too, but from the stacks'
	// contracts.
	names names
	// readSecretInput is set once a Secret was read from the inputs: its
	// values are the stacks', and the render is not kept (LoadCached).
	readSecretInput bool
	// remotes are the remote resources fetched, by URL (remote.go), and
	// readRemote says one was: the render is not kept (LoadCached).
	remotes    map[string]remoteFile
	readRemote bool
	// makers are the objects rendered that make a Secret in the cluster
	// (makers.go), by the Secret's "namespace/name".
	makers map[string]secretMaker
	// sources are the GitRepositories and Buckets rendered, and self
	// says which GitRepositories are this repository (selfsource.go).
	sources sourceObjects
	self    *selfSources
	// entrySyncs are the GitRepositories (namespace/name) that a
	// Kustomization syncs the entry directory from, with that
	// Kustomization, found once (syncsEntry); entrySyncNoted those the
	// notes named.
	entrySyncs     map[string]string
	entrySyncNoted map[string]bool
}

// app is what one Kustomization's spec.path renders, substituted.
type app struct {
	terraforms []*terraform
	sources    []*ociRepository
}

// built is a stack with the objects it was built from.
type built struct {
	stack *environment.Stack
	tf    *terraform
	k     *kustomization
	// versions is the service-versions ConfigMap the version came from.
	versions *configMap
	// source is the OCIRepository the stack's code comes from, if any.
	source *ociRepository
	// backendSecrets are the spec.backendConfigsFrom Secrets the
	// repository does not hold (see checkBackendSecrets).
	backendSecrets []tofucontroller.BackendSecret
}

func newLoader(ctx context.Context, root, dir string) *loader {
	return &loader{
		ctx:            ctx,
		root:           root,
		dir:            dir,
		configMaps:     scoped[*configMap]{},
		secrets:        scoped[*secret]{},
		kustomizations: map[string]*kustomization{},
		apps:           map[string]*app{},
		rendered:       map[string][]renderedObject{},
		self:           newSelfSources(ctx, root),
		checkout:       checkout.NewCache(root, nil),
	}
}

// problem records a problem.
// The problem belongs to the Kustomization and the stack being read,
// unless it names its own.
func (l *loader) problem(p diag.Problem) {
	if p.Kustomization == "" && p.Stack == "" {
		p.Kustomization, p.Stack = l.unit, l.unitStack
	}
	if l.artifacts != nil {
		// Read from a cluster: an input missing is missing there.
		p = p.InCluster()
	}
	l.problems = append(l.problems, p)
}

// warn records a warning: something that holds back no stack, of the
// Kustomization being read.
func (l *loader) warn(p diag.Problem) {
	if p.Kustomization == "" {
		p.Kustomization = l.unit
	}
	l.env.Warnings = append(l.env.Warnings, p)
}

// within makes the problems f records those of the Kustomization k and
// the stack (either may be empty), unless they name their own.
func (l *loader) within(k, stack string, f func()) {
	pk, ps := l.unit, l.unitStack
	l.unit, l.unitStack = k, stack
	defer func() { l.unit, l.unitStack = pk, ps }()
	f()
}

// sortedProblems returns the problems sorted, each once.
func (l *loader) sortedProblems() diag.Problems {
	ps := slices.Clone(l.problems)
	ps.Sort()
	return ps.Compact()
}

// load reads and validates the whole environment: the entry directory's
// builds, then every Kustomization they render, recursively, as
// kustomize-controller would apply and reconcile them.
func (l *loader) load() (*environment.Environment, error) {
	l.env = &environment.Environment{Root: l.root, Dir: l.dir, Skipped: map[string]int{}}
	l.env.Client, l.env.Name = defaultNames(l.root, l.dir)
	l.startReadAhead()
	defer l.stopReadAhead()
	queue, err := l.readEntry()
	if err != nil {
		return nil, err
	}
	if err := l.follow(queue); err != nil {
		return nil, err
	}
	if err := l.stopped(); err != nil {
		return nil, err
	}
	l.adoptEntry()
	l.checkInit()
	l.checkEntry()
	for _, k := range l.sortedKustomizations() {
		if k.bootstrap {
			continue
		}
		l.within(k.unit(), "", func() { l.checkKustomization(k) })
	}
	// The Terraform objects, in the order their stacks are built, each
	// with the Kustomization that applies it.
	var tfs []*terraform
	var owners []*kustomization
	for _, k := range l.sortedKustomizations() {
		for _, tf := range l.apps[k.unit()].terraforms {
			tfs, owners = append(tfs, tf), append(owners, k)
		}
	}
	l.names = newNames(tfs)
	l.env.Notes = append(l.env.Notes, l.names.notes()...)
	l.listAhead(tfs)
	raws := rawAheadOf(tfs)
	defer raws.stop()
	for i, tf := range tfs {
		k := owners[i]
		listed := l.listedAhead(tf)
		if m, ok := raws.take(i); ok {
			tf.raw = m
		}
		l.within(k.unit(), l.stackName(tf), func() {
			l.unitNS = namespaceOf(&tf.object)
			l.stacks = append(l.stacks, l.buildStack(k, tf))
			l.unitNS = ""
		})
		l.ahead.release(listed)
	}
	return l.finish(), nil
}

// finish validates the stacks built and completes the model.
func (l *loader) finish() *environment.Environment {
	l.validateStacks()
	l.explainInputs()
	if l.isolate {
		l.isolateProblems()
	}
	if len(l.env.Warnings) > 0 {
		// A warning found by each build that reads the file is one.
		l.env.Warnings.Sort()
		l.env.Warnings = l.env.Warnings.Compact()
	}
	for _, b := range l.stacks {
		l.env.Stacks = append(l.env.Stacks, b.stack)
	}
	sort.SliceStable(l.env.Stacks, func(i, j int) bool { return l.env.Stacks[i].Name < l.env.Stacks[j].Name })
	if len(l.env.Skipped) == 0 {
		l.env.Skipped = nil
	}
	return l.env
}

// defaultNames are the client and environment names of an entry directory
// with no init ConfigMap: the names of its parent and of itself, as in
// environments/<client>/<env>. A bootstrap clusters/<name> is named after
// the repository's directory and the cluster.
func defaultNames(root, dir string) (client, name string) {
	name = path.Base(dir)
	parent := path.Dir(dir)
	if parent == "." || parent == "clusters" || dir == "." {
		return filepath.Base(root), name
	}
	return path.Base(parent), name
}

// entryUnit is one build of the entry directory.
type entryUnit struct {
	dir   string
	group string
	// files lists the top-level files to build, for the top level of an
	// entry directory without a kustomization file.
	files []string
}

// entryUnits splits the entry directory into builds. A directory with a
// kustomization file is one build, as Flux builds it. Without one, its
// top-level YAML files are one build and each sub-directory is another,
// a group: each group may then hold its own ConfigMaps of the same name
// (the seed layout's per-group service-versions), which one build would
// refuse as a conflict.
func (l *loader) entryUnits() ([]entryUnit, error) {
	if l.rec != nil {
		l.rec.Probe(rendercache.Tree, l.abs(l.dir))
	}
	for _, name := range kustomizeFileNames {
		if fi, err := os.Stat(l.abs(l.rel(l.dir, name))); err == nil && !fi.IsDir() {
			return []entryUnit{{dir: l.dir}}, nil
		}
	}
	entries, err := os.ReadDir(l.abs(l.dir))
	if err != nil {
		return nil, err
	}
	top := entryUnit{dir: l.dir, files: []string{}}
	var units []entryUnit
	rules := l.rulesForRef(nil, nil)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if rules != nil && rules.Excluded(l.rel(l.dir, e.Name()), e.IsDir()) != "" {
			continue
		}
		switch {
		case e.IsDir():
			units = append(units, entryUnit{dir: l.rel(l.dir, e.Name()), group: e.Name()})
		case isYAML(e.Name()):
			top.files = append(top.files, e.Name())
		}
	}
	if len(top.files) > 0 {
		units = append([]entryUnit{top}, units...)
	}
	return units, nil
}

// readEntry builds the entry directory and registers what it renders. It
// returns the Kustomizations to follow.
func (l *loader) readEntry() ([]*kustomization, error) {
	units, err := l.entryUnits()
	if err != nil {
		return nil, err
	}
	built := make([][]renderedObject, len(units))
	rules := l.rulesForRef(nil, nil)
	if readAheadOn {
		l.behind = newDecodeBehind()
		defer func() {
			l.behind.stop()
			l.behind = nil
		}()
	}
	for i, u := range units {
		if err := l.stopped(); err != nil {
			return nil, err
		}
		objs, p := l.build(u.dir, nil, rules, u.files, "")
		if p != nil {
			l.problem(*p)
			continue
		}
		built[i] = objs
	}
	if l.behind != nil {
		l.behind.wait(&l.shared)
	}
	l.decryptEntry(built)
	var queue []*kustomization
	for i, u := range units {
		if l.keepRendered {
			l.rendered[""] = append(l.rendered[""], dropResources(built[i])...)
		}
		queue = append(queue, l.register(u.group, built[i])...)
	}
	return queue, nil
}

// register decodes rendered objects and registers them in a group's
// scope. It returns the Kustomizations among them, and the objects of the
// kinds an app holds.
func (l *loader) register(group string, objs []renderedObject) []*kustomization {
	if l.entry == nil {
		l.entry = &app{}
	}
	ks, _ := l.registerApp(group, objs, l.entry)
	return ks
}

// registerApp is register, also collecting the Terraform objects and
// OCIRepositories into a.
func (l *loader) registerApp(group string, objs []renderedObject, a *app) ([]*kustomization, *app) {
	var ks []*kustomization
	for i := 0; i < len(objs); i++ {
		o := objs[i]
		if isResourceSet(o.Object) {
			// What the Flux Operator makes of it is what the cluster
			// applies: read after the build's own objects, as its own.
			objs = append(objs[:len(objs):len(objs)], l.expandResourceSet(o)...)
			continue
		}
		d, p := l.decodeRendered(o)
		if p != nil {
			l.problem(*p)
			continue
		}
		switch {
		case d.Skipped != "":
			l.env.Skipped[d.Skipped]++
			obj := o.Object
			if o.decoded != nil {
				// Decoded behind, which keeps the map of a kind
				// strata does not read.
				obj = o.decoded.obj
			}
			l.noteMaker(o.File, obj)
		case d.ConfigMap != nil:
			d.ConfigMap.by = l.unit
			if o.Failed {
				d.ConfigMap.Data, d.ConfigMap.noKey = nil, o.noKey
			}
			l.addConfigMap(group, d.ConfigMap)
		case d.Secret != nil:
			d.Secret.Private, d.Secret.Failed, d.Secret.noKey = o.Private, o.Failed, o.noKey
			d.Secret.by = l.unit
			if o.Failed {
				d.Secret.Data = nil
			}
			l.addSecret(group, d.Secret)
		case d.Kustomization != nil:
			d.Kustomization.Group = group
			d.Kustomization.Parent = l.unit
			d.Kustomization.by = l.unit
			if l.addKustomization(d.Kustomization) {
				ks = append(ks, d.Kustomization)
			}
		case d.Terraform != nil && a != nil:
			// A variable substituted away still depends on the inputs.
			d.Terraform.variables = d.Terraform.variables || o.substituted
			a.terraforms = append(a.terraforms, d.Terraform)
		case d.OCIRepository != nil && a != nil:
			a.sources = append(a.sources, d.OCIRepository)
		case d.GitRepository != nil:
			l.sources.git = append(l.sources.git, d.GitRepository)
		case d.Bucket != nil:
			l.sources.buckets = append(l.sources.buckets, d.Bucket)
		}
	}
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].unit() < ks[j].unit() })
	return ks, a
}

// decodeRendered decodes a rendered object, unless it was when it was
// collected (predecode).
func (l *loader) decodeRendered(o renderedObject) (decoded, *diag.Problem) {
	if o.decoded != nil {
		return o.decoded.d, o.decoded.p
	}
	obj := o.Object
	if o.Failed {
		// Its values are still encrypted, and a problem or warning says
		// why: they are not decoded (an encrypted data value is no
		// base64).
		obj = maps.Clone(obj)
		delete(obj, "data")
		delete(obj, "stringData")
	}
	return decodeObject(o.File, obj, &l.shared)
}

// follow builds every Kustomization of the queue, and those they render,
// breadth first. A Kustomization whose postBuild.substituteFrom names a
// ConfigMap or Secret that no build has rendered yet waits until the others
// are built, as Flux would retry it once its dependencies applied them.
func (l *loader) follow(queue []*kustomization) error {
	l.readAheadOf(queue)
	for len(queue) > 0 {
		var waiting []*kustomization
		progress := false
		for len(queue) > 0 {
			if err := l.stopped(); err != nil {
				return err
			}
			k := queue[0]
			queue = queue[1:]
			if !l.inputsReady(k) {
				waiting = append(waiting, k)
				l.doneWith(k)
				continue
			}
			progress = true
			queue = append(queue, l.loadKustomization(k)...)
		}
		if !progress {
			// Nothing more can appear: build the waiting ones and let
			// their missing inputs be reported.
			for _, k := range waiting {
				queue = append(queue, l.loadKustomization(k)...)
			}
			waiting = nil
		}
		queue = append(queue, waiting...)
		l.readAheadOf(waiting)
	}
	return nil
}

// inputsReady reports whether every Kustomization that a Kustomization
// depends on has been built, as kustomize-controller reconciles it only
// once they are Ready (they may apply the ConfigMaps it substitutes
// from, optional ones too), and whether every ConfigMap and Secret that
// its postBuild.substituteFrom requires has been rendered.
func (l *loader) inputsReady(k *kustomization) bool {
	for _, d := range k.Spec.DependsOn {
		if u, known := l.dependency(k, d); known {
			if _, built := l.apps[u]; !built && u != k.unit() {
				return false
			}
		}
	}
	if k.Spec.PostBuild == nil {
		return true
	}
	for _, ref := range k.Spec.PostBuild.SubstituteFrom {
		switch {
		case ref.Optional:
		case ref.Kind == kindConfigMap && l.repoConfigMap(k.Group, ref.Name) == nil:
			return false
		case ref.Kind == kindSecret && l.repoSecret(k.Group, ref.Name) == nil:
			return false
		}
	}
	return true
}

// inputFailed reports whether a Secret of a Kustomization's
// postBuild.substituteFrom could not be decrypted.
func (l *loader) inputFailed(k *kustomization) bool {
	if k.Spec.PostBuild == nil {
		return false
	}
	for _, ref := range k.Spec.PostBuild.SubstituteFrom {
		if s := l.secret(k.Group, ref.Name); ref.Kind == kindSecret && s != nil && s.Failed {
			return true
		}
	}
	return false
}

// sortedKustomizations returns the Kustomizations sorted by name.
func (l *loader) sortedKustomizations() []*kustomization {
	ks := make([]*kustomization, 0, len(l.kustomizations))
	for _, k := range l.kustomizations {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].unit() < ks[j].unit() })
	return ks
}

// rel joins slash-separated parts into a path relative to the root.
func (l *loader) rel(parts ...string) string { return path.Join(parts...) }

// abs turns a path relative to the root into a file-system path.
func (l *loader) abs(rel string) string { return filepath.Join(l.root, filepath.FromSlash(rel)) }

// isYAML reports whether a file name has a YAML extension.
func isYAML(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// addConfigMap registers a ConfigMap in a scope. The same ConfigMap
// rendered again (the same file through another Kustomization) is kept
// once, with a warning when two Flux Kustomizations apply it.
func (l *loader) addConfigMap(scope string, cm *configMap) {
	if prev, dup := l.configMaps.add(scope, cm); dup {
		l.duplicate(&cm.object, &prev.object, "in the same directory", maps.Equal(cm.Data, prev.Data))
	}
}

// addSecret registers a Secret in a scope, as addConfigMap does.
func (l *loader) addSecret(scope string, sec *secret) {
	if prev, dup := l.secrets.add(scope, sec); dup {
		l.duplicate(&sec.object, &prev.object, "in the same directory", maps.Equal(sec.Data, prev.Data))
	}
}

// addKustomization registers a Kustomization. Flux knows one by its
// namespace and name: the first of a name is registered as its name, and
// one of the same name in another namespace as namespace/name (its
// unit). It reports false for one reached twice.
func (l *loader) addKustomization(k *kustomization) bool {
	for _, key := range []string{k.Name(), namespaceOf(&k.object) + "/" + k.Name()} {
		prev := l.kustomizations[key]
		if prev == nil {
			k.unitName = key
			l.kustomizations[key] = k
			return true
		}
		if namespaceOf(&prev.object) == namespaceOf(&k.object) {
			// One Kustomization reached through two parents.
			l.duplicate(&k.object, &prev.object, "in this environment", reflect.DeepEqual(k.Spec, prev.Spec))
			return false
		}
	}
	return false
}

// dependency returns the unit of the Kustomization a dependsOn entry of k
// names (in k's namespace unless it names one), and whether there is
// one. A name that only a Kustomization of another namespace has is
// that one, as strata read dependsOn before it told namespaces apart.
func (l *loader) dependency(k *kustomization, d namedRef) (string, bool) {
	ns := d.Namespace
	if ns == "" {
		ns = namespaceOf(&k.object)
	}
	if c := l.kustomizations[d.Name]; c != nil && namespaceOf(&c.object) == ns {
		return c.unit(), true
	}
	if c := l.kustomizations[ns+"/"+d.Name]; c != nil {
		return c.unit(), true
	}
	if c := l.kustomizations[d.Name]; c != nil {
		return c.unit(), true
	}
	return d.Name, false
}

// configMap looks a ConfigMap up in the group's scope, then at the
// entry's top level, then among those any other build rendered, then in
// the load's inputs (the namespace of what is being read).
func (l *loader) configMap(group, name string) *configMap {
	cm := l.repoConfigMap(group, name)
	if cm != nil && !cm.noKey {
		return cm
	}
	if in := l.input(kindConfigMap, l.namespace(), name); in != nil {
		return in.configMap
	}
	return nil
}

// repoConfigMap is configMap without the inputs: what the repository
// renders.
func (l *loader) repoConfigMap(group, name string) *configMap {
	ns := l.namespace()
	if cm := l.configMaps.get(group, name, ns); cm != nil {
		return cm
	}
	if cm := l.configMaps.get("", name, ns); cm != nil {
		return cm
	}
	return l.configMaps.inAny(name, ns)
}

// secret looks a Secret up as configMap does. A Secret that a stack
// writes is never read from the inputs: it is that stack's contract. A
// Secret of the repository that strata cannot decrypt for want of a key
// exists in the cluster, decrypted by Flux: it is read from the inputs,
// and without them it is missing (see missing).
func (l *loader) secret(group, name string) *secret {
	s := l.repoSecret(group, name)
	if s != nil && !s.noKey {
		return s
	}
	if s == nil && l.names.isWritten(name) {
		return nil
	}
	if in := l.input(kindSecret, l.namespace(), name); in != nil {
		return in.secret
	}
	return nil
}

// repoSecret is secret without the inputs.
func (l *loader) repoSecret(group, name string) *secret {
	ns := l.namespace()
	if s := l.secrets.get(group, name, ns); s != nil {
		return s
	}
	if s := l.secrets.get("", name, ns); s != nil {
		return s
	}
	return l.secrets.inAny(name, ns)
}

// inNamespace runs f with the inputs looked for in namespace ns: that of
// a source whose spec.secretRef is read.
func (l *loader) inNamespace(ns string, f func()) {
	prev := l.unitNS
	l.unitNS = ns
	defer func() { l.unitNS = prev }()
	f()
}

// namespace is the namespace of what is being read, where its inputs
// are looked for.
func (l *loader) namespace() string {
	if l.unitNS != "" {
		return l.unitNS
	}
	if k := l.kustomizations[l.unit]; k != nil {
		return namespaceOf(&k.object)
	}
	return DefaultNamespace
}

// scopeDirs names the directories a ConfigMap of the group is looked up in,
// for messages.
func (l *loader) scopeDirs(group string) string {
	if group == "" {
		return l.dir + "/"
	}
	return l.rel(l.dir, group) + "/ or " + l.dir + "/"
}

// cleanPath makes a spec.path relative to its source's root. It reports
// false when the path leaves the source.
func cleanPath(p string) (string, bool) {
	c := path.Clean(strings.TrimPrefix(p, "/"))
	if c == ".." || strings.HasPrefix(c, "../") {
		return c, false
	}
	return c, true
}

// loadKustomization builds a Kustomization's spec.path with Flux's code,
// substitutes its postBuild variables, and registers what it renders. It
// returns the Kustomizations among them, to follow.
func (l *loader) loadKustomization(k *kustomization) (children []*kustomization) {
	l.within(k.unit(), "", func() { children = l.buildKustomization(k) })
	l.doneWith(k)
	l.readAheadOf(children)
	return children
}

// buildKustomization is loadKustomization, its problems recorded as k's.
func (l *loader) buildKustomization(k *kustomization) []*kustomization {
	a := &app{}
	l.apps[k.unit()] = a
	vars := l.substitutionVars(k)
	if l.inputFailed(k) {
		// A Secret it substitutes from could not be decrypted, which is
		// a problem already: substituting without it would only add
		// problems of variables that are not defined.
		vars = nil
	}
	dir, ok := l.kustomizationPath(k)
	if !ok {
		k.unbuilt = k.Spec.Path
		return nil
	}
	if dir == l.dir {
		k.appliesEntry = true
		l.env.Notes = append(l.env.Notes, fmt.Sprintf("Kustomization %s (%s) is the entry directory itself; its objects are read once", k.Name(), k.File))
		return nil
	}
	objs, p := l.build(dir, k, l.rulesForRef(k.Spec.SourceRef, &k.object), nil, k.ref())
	if !l.keepRendered && k.rawJSON != nil {
		// Nothing reads it again: at 10,000 stacks the maps of the
		// Kustomizations and Terraform objects were half the heap, and
		// their JSON a tenth of it.
		k.raw, k.rawJSON = nil, nil
	}
	if p != nil {
		p.Fix = strings.TrimSpace(p.Fix + fmt.Sprintf(" (Kustomization %s in %s)", k.Name(), k.File))
		l.problem(*p)
		k.unbuilt = dir
		return nil
	}
	out := make([]renderedObject, 0, len(objs))
	for _, o := range objs {
		if s, ok := l.substituteObject(k, o, vars); ok {
			out = append(out, withCommonMetadata(k, s))
		}
	}
	if l.keepRendered {
		l.rendered[k.unit()] = dropResources(out)
	}
	ks, _ := l.registerApp(k.Group, out, a)
	return ks
}

// withCommonMetadata sets the Kustomization's spec.commonMetadata on an
// object it renders, as kustomize-controller does before it applies it:
// after the build, decryption and substitution (so ${…} in it stays as
// written), each label and annotation replacing one of the same key.
func withCommonMetadata(k *kustomization, o renderedObject) renderedObject {
	cm := k.Spec.CommonMetadata
	if cm == nil || len(cm.Labels)+len(cm.Annotations) == 0 {
		return o
	}
	obj := maps.Clone(o.Object)
	md, _ := obj["metadata"].(map[string]any)
	md = maps.Clone(md)
	if md == nil {
		md = map[string]any{}
	}
	for field, set := range map[string]map[string]string{"labels": cm.Labels, "annotations": cm.Annotations} {
		if len(set) == 0 {
			continue
		}
		m, _ := md[field].(map[string]any)
		m = maps.Clone(m)
		if m == nil {
			m = map[string]any{}
		}
		for key, v := range set {
			m[key] = v
		}
		md[field] = m
	}
	obj["metadata"] = md
	o.Object, o.res = obj, nil
	return o
}

// kustomizationPath returns the Kustomization's spec.path relative to the
// root, and whether it is a directory there.
func (l *loader) kustomizationPath(k *kustomization) (string, bool) {
	if !l.isSelf(k.Spec.SourceRef, &k.object) {
		return "", false
	}
	dir, ok := cleanPath(k.Spec.Path)
	if !ok {
		l.problem(diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: fmt.Sprintf("spec.path %q leaves the repository", k.Spec.Path),
			Fix:     "make spec.path relative to the repository root, e.g. ./flux-apps/<kind>/<service>",
		})
		return "", false
	}
	if l.rec != nil {
		l.rec.Probe(rendercache.Stat, l.abs(dir))
	}
	fi, err := l.ahead.stat(l.abs(dir))
	if rules := l.rulesForRef(k.Spec.SourceRef, &k.object); err == nil && fi.IsDir() && rules != nil {
		if why := rules.Excluded(dir, true); why != "" {
			l.problem(diag.Problem{
				File:    k.File,
				Object:  k.ref(),
				Message: fmt.Sprintf("spec.path %q is not in the artifact Flux builds from: %s", k.Spec.Path, why),
				Fix:     "point spec.path at a directory Flux sees, or stop ignoring this one (the .sourceignore file or the GitRepository's spec.ignore that names it; commit it if git ignores it)",
			})
			return "", false
		}
	}
	if err != nil || !fi.IsDir() {
		p := diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: fmt.Sprintf("spec.path %q is not a directory of this repository", k.Spec.Path),
			Fix:     "point spec.path at an existing directory relative to the repository root, e.g. ./flux-apps/<kind>/<service>",
		}
		if names := l.unset[unsetKey(k.File, k.ref())]; len(names) > 0 {
			p.Message += fmt.Sprintf(": variable(s) %s were not defined when Kustomization %s substituted it, and came out empty", strings.Join(names, ", "), k.Parent)
			p.Fix = fmt.Sprintf("define %s in postBuild.substitute or a postBuild.substituteFrom ConfigMap of Kustomization %s", strings.Join(names, ", "), k.Parent)
		}
		l.problem(p)
		return "", false
	}
	return dir, true
}
