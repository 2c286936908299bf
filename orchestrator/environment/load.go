package environment

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
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

// Load reads the environment in dir (environments/<client>/<env>, absolute
// or relative to the working directory) with everything it refers to, and
// validates all of it.
//
// The repository root is the parent of the nearest ancestor directory named
// environments. Paths in the model and in problems are relative to it and
// slash-separated.
//
// When the environment has problems, the error wraps a diag.Problems that
// lists every one of them, sorted (use errors.As to get it), and the
// returned Environment is the model as far as it could be built, for
// reporting only: it must not be run. Other errors (a directory that is not
// an environment, an unreadable file, a cancelled ctx) come with a nil
// Environment.
func Load(ctx context.Context, dir string) (*Environment, error) {
	root, rel, err := findRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("load environment %s: %w", dir, err)
	}
	l := newLoader(ctx, root, rel)
	env, err := l.load()
	if err != nil {
		return nil, fmt.Errorf("load environment %s: %w", rel, err)
	}
	if ps := l.sortedProblems(); len(ps) > 0 {
		return env, fmt.Errorf("load environment %s: %w", rel, ps)
	}
	return env, nil
}

// findRoot returns the repository root of the environment directory dir
// (absolute) and dir relative to it (slash-separated).
func findRoot(dir string) (root, rel string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", "", err
	}
	if !fi.IsDir() {
		return "", "", fmt.Errorf("%s is not a directory", dir)
	}
	for p := abs; ; p = filepath.Dir(p) {
		if filepath.Base(p) == environmentsDir {
			root = filepath.Dir(p)
			break
		}
		if filepath.Dir(p) == p {
			return "", "", fmt.Errorf("no repository root: no ancestor directory of %s is named %s/", dir, environmentsDir)
		}
	}
	r, err := filepath.Rel(root, abs)
	if err != nil {
		return "", "", err
	}
	rel = filepath.ToSlash(r)
	if parts := strings.Split(rel, "/"); len(parts) != 3 {
		return "", "", fmt.Errorf("%s is not an environment directory: want %s/<client>/<env>", rel, environmentsDir)
	}
	return root, rel, nil
}

// loader holds what has been read of one environment so far.
type loader struct {
	ctx  context.Context
	root string
	dir  string

	problems diag.Problems
	// configMaps holds the ConfigMaps by scope and name; scope "" is the
	// environment's root, any other scope a group.
	configMaps map[string]map[string]*configMap
	// kustomizations are the environment's Flux Kustomizations by name.
	kustomizations map[string]*kustomization
	// apps are the objects each Kustomization brings in, by its name.
	apps map[string]*app
	// env is the model being built.
	env *Environment
	// stacks are the stacks built, with what they came from.
	stacks []*built
}

// app is what one Kustomization's spec.path holds, substituted.
type app struct {
	terraforms []*terraform
	sources    []*ociRepository
}

// built is a stack with the objects it was built from.
type built struct {
	stack *Stack
	tf    *terraform
	k     *kustomization
	// versions is the service-versions ConfigMap the version came from.
	versions *configMap
	// source is the OCIRepository the stack's code comes from, if any.
	source *ociRepository
}

func newLoader(ctx context.Context, root, dir string) *loader {
	return &loader{
		ctx:            ctx,
		root:           root,
		dir:            dir,
		configMaps:     map[string]map[string]*configMap{},
		kustomizations: map[string]*kustomization{},
		apps:           map[string]*app{},
	}
}

// problem records a problem.
func (l *loader) problem(p diag.Problem) { l.problems = append(l.problems, p) }

// sortedProblems returns the problems sorted, each once.
func (l *loader) sortedProblems() diag.Problems {
	ps := slices.Clone(l.problems)
	ps.Sort()
	return slices.Compact(ps)
}

// load reads and validates the whole environment.
func (l *loader) load() (*Environment, error) {
	parts := strings.Split(l.dir, "/")
	l.env = &Environment{
		Root:   l.root,
		Dir:    l.dir,
		Client: parts[1],
		Name:   parts[2],
	}
	if err := l.readEnvironment(); err != nil {
		return nil, err
	}
	l.checkInit()
	for _, k := range l.sortedKustomizations() {
		if err := l.loadKustomization(k); err != nil {
			return nil, err
		}
	}
	for _, k := range l.sortedKustomizations() {
		for _, tf := range l.apps[k.Name()].terraforms {
			l.stacks = append(l.stacks, l.buildStack(k, tf))
		}
	}
	l.validateStacks()
	for _, b := range l.stacks {
		l.env.Stacks = append(l.env.Stacks, b.stack)
	}
	sort.SliceStable(l.env.Stacks, func(i, j int) bool { return l.env.Stacks[i].Name < l.env.Stacks[j].Name })
	return l.env, nil
}

// sortedKustomizations returns the Kustomizations sorted by name.
func (l *loader) sortedKustomizations() []*kustomization {
	ks := make([]*kustomization, 0, len(l.kustomizations))
	for _, k := range l.kustomizations {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name() < ks[j].Name() })
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

// readEnvironment reads the YAML files at the environment's root and at the
// top level of each of its groups (sub-directories).
func (l *loader) readEnvironment() error {
	entries, err := os.ReadDir(l.abs(l.dir))
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		rel := l.rel(l.dir, e.Name())
		if !e.IsDir() {
			if isYAML(e.Name()) {
				if err := l.readEnvironmentFile(rel, ""); err != nil {
					return err
				}
			}
			continue
		}
		files, err := os.ReadDir(l.abs(rel))
		if err != nil {
			return err
		}
		for _, f := range files {
			if !f.IsDir() && isYAML(f.Name()) && !strings.HasPrefix(f.Name(), ".") {
				if err := l.readEnvironmentFile(l.rel(rel, f.Name()), e.Name()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// readFile reads a file relative to the root.
func (l *loader) readFile(rel string) (string, error) {
	if err := l.ctx.Err(); err != nil {
		return "", err
	}
	b, err := os.ReadFile(l.abs(rel))
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// readEnvironmentFile reads one file of the environment directory and
// registers its ConfigMaps and Kustomizations in the group's scope.
func (l *loader) readEnvironmentFile(rel, group string) error {
	text, err := l.readFile(rel)
	if err != nil {
		return err
	}
	for _, doc := range splitDocuments(text) {
		d, p := decodeDocument(rel, doc)
		if p != nil {
			l.problem(*p)
			continue
		}
		switch {
		case d.ConfigMap != nil:
			l.addConfigMap(group, d.ConfigMap)
		case d.Kustomization != nil:
			d.Kustomization.Group = group
			l.addKustomization(d.Kustomization)
		}
	}
	return nil
}

// addConfigMap registers a ConfigMap in a scope.
func (l *loader) addConfigMap(scope string, cm *configMap) {
	s := l.configMaps[scope]
	if s == nil {
		s = map[string]*configMap{}
		l.configMaps[scope] = s
	}
	if prev := s[cm.Name()]; prev != nil {
		l.problem(duplicateObject(&cm.object, &prev.object, "in the same directory"))
		return
	}
	s[cm.Name()] = cm
}

// addKustomization registers a Kustomization; names are unique in the
// environment.
func (l *loader) addKustomization(k *kustomization) {
	if prev := l.kustomizations[k.Name()]; prev != nil {
		l.problem(duplicateObject(&k.object, &prev.object, "in this environment"))
		return
	}
	l.kustomizations[k.Name()] = k
}

// configMap looks a ConfigMap up in the group's scope, then at the
// environment's root.
func (l *loader) configMap(group, name string) *configMap {
	if cm := l.configMaps[group][name]; cm != nil {
		return cm
	}
	return l.configMaps[""][name]
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

// loadKustomization checks a Kustomization and reads the objects of its
// spec.path, substituted.
func (l *loader) loadKustomization(k *kustomization) error {
	a := &app{}
	l.apps[k.Name()] = a
	l.checkKustomization(k)
	vars := l.substitutionVars(k)
	dir, ok := l.kustomizationPath(k)
	if !ok {
		return nil
	}
	files, err := l.manifestFiles(dir, map[string]bool{})
	if err != nil {
		return err
	}
	for _, f := range files {
		text, err := l.readFile(f)
		if err != nil {
			return err
		}
		for _, doc := range splitDocuments(text) {
			doc = l.substituteDocument(k, f, doc, vars)
			d, p := decodeDocument(f, doc)
			if p != nil {
				l.problem(*p)
				continue
			}
			switch {
			case d.Terraform != nil:
				a.terraforms = append(a.terraforms, d.Terraform)
			case d.OCIRepository != nil:
				a.sources = append(a.sources, d.OCIRepository)
			}
		}
	}
	return nil
}

// kustomizationPath returns the Kustomization's spec.path relative to the
// root, and whether it is a directory there.
func (l *loader) kustomizationPath(k *kustomization) (string, bool) {
	if k.Spec.SourceRef == nil || k.Spec.SourceRef.Kind != SourceGitRepository || k.Spec.SourceRef.Name != DefaultGitSource {
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
	fi, err := os.Stat(l.abs(dir))
	if err != nil || !fi.IsDir() {
		l.problem(diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: fmt.Sprintf("spec.path %q is not a directory of this repository", k.Spec.Path),
			Fix:     "point spec.path at an existing directory relative to the repository root, e.g. ./flux-apps/<kind>/<service>",
		})
		return "", false
	}
	return dir, true
}

// manifestFiles lists the YAML files of a Kustomization's directory: the
// resources of its kustomization.yaml if it has one, otherwise every YAML
// file at its top level.
func (l *loader) manifestFiles(dir string, visited map[string]bool) ([]string, error) {
	if visited[dir] {
		return nil, nil
	}
	visited[dir] = true
	for _, name := range kustomizeFileNames {
		kf := l.rel(dir, name)
		if _, err := os.Stat(l.abs(kf)); err != nil {
			continue
		}
		text, err := l.readFile(kf)
		if err != nil {
			return nil, err
		}
		resources, p := decodeKustomizeFile(kf, text)
		if p != nil {
			l.problem(*p)
			return nil, nil
		}
		var files []string
		for _, r := range resources {
			rf, err := l.resource(kf, dir, r, visited)
			if err != nil {
				return nil, err
			}
			files = append(files, rf...)
		}
		return files, nil
	}
	entries, err := os.ReadDir(l.abs(dir))
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && isYAML(e.Name()) && !strings.HasPrefix(e.Name(), ".") {
			files = append(files, l.rel(dir, e.Name()))
		}
	}
	return files, nil
}

// resource resolves one entry of a kustomization.yaml's resources.
func (l *loader) resource(kf, dir, r string, visited map[string]bool) ([]string, error) {
	if strings.Contains(r, "://") || strings.HasPrefix(r, "github.com/") {
		l.problem(diag.Problem{
			File:    kf,
			Message: fmt.Sprintf("resources names the remote resource %q, which strata does not read", r),
			Fix:     fmt.Sprintf("copy the resource into the repository and list its file in %s", kf),
		})
		return nil, nil
	}
	rel, ok := cleanPath(path.Join(dir, r))
	if !ok || strings.HasPrefix(r, "/") {
		l.problem(diag.Problem{
			File:    kf,
			Message: fmt.Sprintf("resources names %q, which leaves the repository", r),
			Fix:     fmt.Sprintf("list files relative to %s/ inside the repository in %s", dir, kf),
		})
		return nil, nil
	}
	fi, err := os.Stat(l.abs(rel))
	if errors.Is(err, fs.ErrNotExist) {
		l.problem(diag.Problem{
			File:    kf,
			Message: fmt.Sprintf("resources names %q, which does not exist", r),
			Fix:     fmt.Sprintf("create %s or remove it from the resources of %s", rel, kf),
		})
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return l.manifestFiles(rel, visited)
	}
	return []string{rel}, nil
}
