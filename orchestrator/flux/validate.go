package flux

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/strata-iac/strata/internal/celexpr"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofucontroller"
)

// duplicateObject reports an object whose name another object of the same
// kind already uses.
func duplicateObject(o, prev *object, where string) diag.Problem {
	return diag.Problem{
		File:    o.File,
		Object:  o.ref(),
		Message: fmt.Sprintf("%s is defined twice %s: also in %s", o.ref(), where, prev.File),
		Fix:     fmt.Sprintf("rename or remove one of the two %s objects named %s", o.Kind, o.Name()),
	}
}

// checkEntry warns that the entry directory is not an environment when
// it holds no init ConfigMap, no Flux Kustomization and no Terraform
// object: a directory named by mistake (docs/, a stack's code, a parent
// of environments) would otherwise be "valid: 0 stacks" without a word.
// A warning, not a problem: an environment whose every stack was removed
// is empty too, and its removals must still be planned, approved and
// applied.
func (l *loader) checkEntry() {
	if l.configMaps.get("", InitConfigMap, "") != nil || len(l.kustomizations) > 0 {
		return
	}
	for _, a := range l.apps {
		if len(a.terraforms) > 0 {
			return
		}
	}
	if l.entry != nil && len(l.entry.terraforms) > 0 {
		return
	}
	fix := "name the directory Flux reconciles for one cluster: an environment directory with an init.yaml, or a bootstrap clusters/<name>"
	if near := environmentDirs(l.root, 3); len(near) > 0 {
		fix += ", such as " + strings.Join(near, " or ")
	}
	dir := l.dir
	if dir == "." {
		// No checkout holds it: the directory is its own root.
		dir = l.root
	}
	l.warn(diag.Problem{
		File:    l.dir,
		Message: fmt.Sprintf("%s/ is not an environment: it renders no ConfigMap %s, no Flux Kustomization and no Terraform object, so nothing of it runs (an environment whose every stack was removed is empty too)", dir, InitConfigMap),
		Fix:     fix,
	})
}

// environmentDirs returns at most n directories of the repository that
// hold an environment's init file, or are a bootstrap's clusters/<name>,
// in order of path.
func environmentDirs(root string, n int) []string {
	var dirs []string
	for _, pattern := range []string{environmentsDir + "/*/*/" + InitFile, "clusters/*/" + InitFile, "clusters/*/flux-system"} {
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		for _, m := range matches {
			rel, err := filepath.Rel(root, filepath.Dir(m))
			if err == nil && !slices.Contains(dirs, filepath.ToSlash(rel)) {
				dirs = append(dirs, filepath.ToSlash(rel))
			}
		}
	}
	slices.Sort(dirs)
	return dirs[:min(n, len(dirs))]
}

// checkInit checks the init ConfigMap at the entry directory's top level,
// when there is one, and takes the client, environment name, class and
// strata's settings from it.
func (l *loader) checkInit() {
	l.env.Settings = environment.DefaultSettings(l.root)
	cm := l.configMaps.get("", InitConfigMap, "")
	if cm == nil {
		// The init ConfigMap is optional: without it, the names are the
		// directories' and the class is non-prod.
		l.env.Class = environment.ClassNonProd
		l.env.Notes = append(l.env.Notes, fmt.Sprintf("no ConfigMap %s in %s/: client %q and environment %q are named after the directories, and the environment class is %s",
			InitConfigMap, l.dir, l.env.Client, l.env.Name, environment.ClassNonProd))
		return
	}
	l.env.Init = cm.Data
	want := []struct{ key, example string }{
		{environment.InitClientID, fmt.Sprintf("%q", l.env.Client)},
		{environment.InitEnvironment, fmt.Sprintf("%q", l.env.Name)},
		{environment.InitEnvironmentClass, fmt.Sprintf("%q or %q", environment.ClassProd, environment.ClassNonProd)},
	}
	for _, w := range want {
		if cm.Data[w.key] == "" {
			l.problem(diag.Problem{
				File:    cm.File,
				Object:  cm.ref(),
				Message: fmt.Sprintf("data.%s is missing", w.key),
				Fix:     fmt.Sprintf("add %s: %s to the data of ConfigMap %s in %s", w.key, w.example, InitConfigMap, cm.File),
			})
		}
	}
	if v := cm.Data[environment.InitClientID]; v != "" && l.checkLabel(cm, environment.InitClientID) {
		l.env.Client = v
	}
	if v := cm.Data[environment.InitEnvironment]; v != "" && l.checkLabel(cm, environment.InitEnvironment) {
		l.env.Name = v
	}
	class := cm.Data[environment.InitEnvironmentClass]
	l.env.Class = class
	if class != "" && class != environment.ClassProd && class != environment.ClassNonProd {
		l.problem(diag.Problem{
			File:    cm.File,
			Object:  cm.ref(),
			Message: fmt.Sprintf("data.%s is %q; it must be %s or %s", environment.InitEnvironmentClass, class, environment.ClassProd, environment.ClassNonProd),
			Fix:     fmt.Sprintf("set %s to %q or %q in %s", environment.InitEnvironmentClass, environment.ClassProd, environment.ClassNonProd, cm.File),
		})
	}
	settings, problems := environment.ParseSettings(l.root, cm.File, cm.ref(), cm.Data)
	l.env.Settings = settings
	l.problems = append(l.problems, problems...)
}

// checkKustomization checks a Kustomization's source and dependencies.
func (l *loader) checkKustomization(k *kustomization) {
	l.checkObjectName(&k.object)
	l.checkDecryption(k)
	l.checkExpressions(k)
	ref := k.Spec.SourceRef
	elsewhere := l.selfElsewhere(ref, &k.object, k.File, k.ref())
	switch {
	case ref == nil:
		l.problem(diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: "spec.sourceRef is missing",
			Fix:     fmt.Sprintf("set spec.sourceRef to kind %s, name %s (this repository)", environment.SourceGitRepository, environment.DefaultGitSource),
		})
	case elsewhere != nil:
		l.problem(*elsewhere)
	case ref.Kind == environment.SourceGitRepository && !l.isSelf(ref, &k.object) && l.findSyncSource(ref, &k.object) == nil:
		// No GitRepository of that name anywhere: kustomize-controller
		// fails it too (source not found).
		l.problem(diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: fmt.Sprintf("spec.sourceRef names %s, but strata reads Kustomizations only from %s/%s (this repository), and no GitRepository of that name is in the repository", ref, environment.SourceGitRepository, environment.DefaultGitSource),
			Fix:     fmt.Sprintf("set spec.sourceRef to kind %s, name %s, and keep the manifests under flux-apps/ in this repository; a GitRepository that is this repository under another name is one whose spec.url is a remote of the checkout, or one --self-source GitRepository/<namespace>/<name> names", environment.SourceGitRepository, environment.DefaultGitSource),
		})
	case !l.isSelf(ref, &k.object):
		what := ref.String()
		if g := l.findGitRepository(ref, &k.object); g != nil && ref.Kind == environment.SourceGitRepository && g.Spec.URL != "" {
			what += " (" + g.Spec.URL + ")"
		}
		// In the cluster source-controller fetches it; here what the
		// Kustomization brings in is not known, and waits.
		l.problem(diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: fmt.Sprintf("waiting for source %s: spec.sourceRef names another source than this checkout, and strata renders Kustomizations of this checkout only; what this Kustomization brings in is not known here", what),
			Fix:     sourceFix(ref, k),
			Code:    diag.CodeUnreachable,
		})
	}
	for _, d := range k.Spec.DependsOn {
		if _, ok := l.dependency(k, d); !ok {
			l.problem(diag.Problem{
				File:    k.File,
				Object:  k.ref(),
				Message: fmt.Sprintf("spec.dependsOn names Kustomization %q, which does not exist in this environment", d.Name),
				Fix:     fmt.Sprintf("name one of the environment's Kustomizations (%s) or remove the entry", strings.Join(l.kustomizationNames(), ", ")),
			})
		}
	}
}

// checkExpressions checks a Kustomization's CEL expressions as
// kustomize-controller does before it builds anything: a dependsOn
// readyExpr is compiled over self and dep and must be a bool; each
// healthCheckExprs entry needs current, and its current, inProgress and
// failed must parse. One that does not stalls the Kustomization in Flux
// (InvalidCELExpression): here it is a problem of the Kustomization,
// which holds back its chain.
func (l *loader) checkExpressions(k *kustomization) {
	bad := func(what, example string) {
		l.problem(diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: what + ", so Flux stalls the Kustomization (InvalidCELExpression)",
			Fix:     fmt.Sprintf("correct the expression in %s: for example %s", k.File, example),
		})
	}
	for i, d := range k.Spec.DependsOn {
		if d.ReadyExpr == "" {
			continue
		}
		if err := celexpr.Compile(d.ReadyExpr, "self", "dep"); err != nil {
			bad(fmt.Sprintf("spec.dependsOn[%d].readyExpr: %v", i, err), "readyExpr: dep.status.conditions.filter(c, c.type == 'Ready').all(c, c.status == 'True'), over self (this Kustomization) and dep (the dependency)")
		}
	}
	for i, h := range k.Spec.HealthCheckExprs {
		const example = "current: status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True'), over the object's top-level fields"
		if h.Current == "" {
			bad(fmt.Sprintf("spec.healthCheckExprs[%d] (%s %s): failed to create custom status evaluator for healthchecks[%d]: expression Current not specified", i, h.APIVersion, h.Kind, i), example)
		}
		for _, e := range []struct{ name, expr string }{{"Current", h.Current}, {"Failed", h.Failed}, {"InProgress", h.InProgress}} {
			if e.expr == "" {
				continue
			}
			if err := celexpr.Parse(e.expr); err != nil {
				bad(fmt.Sprintf("spec.healthCheckExprs[%d] (%s %s): failed to create custom status evaluator for healthchecks[%d]: failed to parse the expression %s: %v", i, h.APIVersion, h.Kind, i, e.name, err), example)
			}
		}
	}
}

// sourceFix says what to do of a Kustomization whose source is not this
// checkout.
func sourceFix(ref *sourceRef, k *kustomization) string {
	fix := "its stacks are not run from this checkout: move them under a Kustomization of this repository to run them here"
	if ref.Kind != environment.SourceGitRepository {
		return fix
	}
	ns := refNamespace(ref, &k.object)
	if ns == "" {
		ns = DefaultNamespace
	}
	return fmt.Sprintf("if %s is this repository, give --self-source %s/%s/%s; otherwise %s", ref, ref.Kind, ns, ref.Name, fix)
}

// kustomizationNames lists the environment's Kustomizations, sorted.
func (l *loader) kustomizationNames() []string {
	var names []string
	for _, k := range l.sortedKustomizations() {
		names = append(names, k.Name())
	}
	return names
}

// validateStacks checks what involves more than one stack: unique names,
// one producer per contract, dependsOn and readInputsFromSecrets naming
// something, and the versions.
func (l *loader) validateStacks() {
	sort.SliceStable(l.stacks, func(i, j int) bool {
		a, b := l.stacks[i], l.stacks[j]
		if a.stack.Name != b.stack.Name {
			return a.stack.Name < b.stack.Name
		}
		if a.tf.File != b.tf.File {
			return a.tf.File < b.tf.File
		}
		return a.k.unit() < b.k.unit()
	})
	byName := map[string]*built{}
	unique := l.stacks[:0]
	sources := map[*ociRepository]bool{}
	for _, b := range l.stacks {
		l.unit, l.unitStack = b.k.unit(), b.stack.Name
		if b.source != nil && !sources[b.source] {
			sources[b.source] = true
			l.checkObjectName(&b.source.object)
		}
		if !l.checkObjectName(&b.tf.object) {
			// A name that could escape the state directory never
			// becomes a stack: its problem blocks the Terraform object
			// (isolateProblems).
			continue
		}
		if prev := byName[b.stack.Name]; prev != nil && prev.tf.Metadata.Namespace == b.tf.Metadata.Namespace && prev.tf.File == b.tf.File {
			// One Terraform object that two Kustomizations apply: one
			// stack, and a warning of the conflict.
			b.tf.by, prev.tf.by = b.k.unit(), prev.k.unit()
			l.duplicate(&b.tf.object, &prev.tf.object, "", b.tf.sum == prev.tf.sum)
			continue
		}
		if prev := byName[b.stack.Name]; prev != nil {
			l.problem(diag.Problem{
				File:    b.tf.File,
				Object:  b.tf.ref(),
				Message: fmt.Sprintf("stack name %q is used twice: here (via Kustomization %s) and in %s (via Kustomization %s)", b.stack.Name, b.k.Name(), prev.tf.File, prev.k.Name()),
				Fix:     "rename one of the two Terraform objects (metadata.name), put one in another namespace, or drop one of the Kustomizations; Flux, the Tofu Controller and strata know a Terraform object by its namespace and name",
			})
			continue
		}
		byName[b.stack.Name] = b
		unique = append(unique, b)
	}
	l.stacks = unique

	producers := map[string]*built{}
	for _, b := range l.stacks {
		l.unit, l.unitStack = b.k.unit(), b.stack.Name
		c := b.stack.Produces
		if c == "" {
			continue
		}
		if prev := producers[c]; prev != nil {
			l.problem(diag.Problem{
				File:    b.tf.File,
				Object:  b.tf.ref(),
				Message: fmt.Sprintf("contract %q is also produced by stack %q (%s)", c, prev.stack.Name, prev.tf.File),
				Fix:     fmt.Sprintf("give one of the two stacks another contract name (spec.writeOutputsToSecret.name or annotation %s); a contract has one producer", environment.AnnotationContract),
			})
			continue
		}
		producers[c] = b
	}

	// A reader names the Secret a writer writes (writeOutputsToSecret.name),
	// as under the Tofu Controller; a writer whose contract the
	// annotation names otherwise publishes it under that other name.
	bySecret := map[string]string{}
	for c, b := range producers {
		if w := b.tf.refs.writeOutputsToSecret; w != nil && w.Name != "" {
			// The Secret as its readers name it (nameByNamespace).
			if secret := l.names.contract(namespaceOf(&b.tf.object), w.Name); secret != c {
				bySecret[secret] = c
			}
		}
	}
	for _, b := range l.stacks {
		for i, in := range b.stack.Consumes {
			if c, ok := bySecret[in.Contract]; ok && producers[in.Contract] == nil {
				b.stack.Consumes[i].Contract = c
			}
		}
		for i, cv := range b.stack.ContractVars {
			if c, ok := bySecret[cv.Contract]; ok && producers[cv.Contract] == nil {
				b.stack.ContractVars[i].Contract = c
			}
		}
	}

	var names, contracts []string
	writers := map[string]string{}
	for _, b := range l.stacks {
		names = append(names, b.stack.Name)
		if w := b.tf.refs.writeOutputsToSecret; w != nil && w.Name != "" {
			writers[w.Name] = b.stack.Name
		}
	}
	for c := range producers {
		contracts = append(contracts, c)
	}
	sort.Strings(contracts)
	produced := "none yet"
	if len(contracts) > 0 {
		produced = strings.Join(contracts, ", ")
	}
	for _, b := range l.stacks {
		l.unit, l.unitStack = b.k.unit(), b.stack.Name
		for _, d := range b.tf.refs.dependsOn {
			dep := l.names.dependency(b.tf, d)
			if labels, elsewhere := l.outOfShard[kindTerraform+"/"+d.Name]; byName[dep] == nil && elsewhere {
				l.problem(diag.Problem{
					File:    b.tf.File,
					Object:  b.tf.ref(),
					Message: fmt.Sprintf("spec.dependsOn names Terraform %q, which is another shard's (%s): this controller reconciles %s", d.Name, labels, l.shardText()),
					Fix:     "give both objects one shard's labels, so that one controller runs them in order, or remove the entry",
				})
				continue
			}
			if byName[dep] == nil {
				l.problem(diag.Problem{
					File:    b.tf.File,
					Object:  b.tf.ref(),
					Message: fmt.Sprintf("spec.dependsOn names Terraform %q, which does not exist in this environment", d.Name),
					Fix:     fmt.Sprintf("name one of the environment's stacks (%s) or remove the entry", strings.Join(names, ", ")),
				})
			}
		}
		for _, in := range b.stack.Consumes {
			if producers[in.Contract] == nil {
				p := diag.MissingInput(b.tf.File, b.tf.ref(), "spec.readInputsFromSecrets", kindSecret, namespaceOf(&b.tf.object), in.Contract)
				p.Fix = fmt.Sprintf("%s; or name a Secret a stack writes (%s)", p.Fix, produced)
				l.missing(p, kindSecret, namespaceOf(&b.tf.object), in.Contract)
			}
		}
		for _, cv := range b.stack.ContractVars {
			if producers[cv.Contract] == nil && !cv.Optional {
				p := diag.MissingInput(b.tf.File, b.tf.ref(), cv.Field, kindSecret, namespaceOf(&b.tf.object), cv.Contract, tofucontroller.RenamedFrom(cv.Keys)...)
				p.Fix = fmt.Sprintf("%s; or name a Secret a stack writes (%s)", p.Fix, produced)
				l.missing(p, kindSecret, namespaceOf(&b.tf.object), cv.Contract)
			}
		}
		if p := b.stack.Produces; p != "" && b.tf.refs.writeOutputsToSecret != nil {
			if b.tf.Metadata.Annotations[environment.AnnotationContract] == "" {
				// The contract is the Secret's, which may be named
				// namespace_name (names.contract): the Secret is not.
				p = b.tf.refs.writeOutputsToSecret.Name
			}
			if sec := l.secret(b.k.Group, p); sec != nil {
				l.problem(diag.Problem{
					File:    b.tf.File,
					Object:  b.tf.ref(),
					Message: fmt.Sprintf("spec.writeOutputsToSecret.name %q is also a Secret of the repository (%s): the stack's outputs and the repository's Secret would overwrite each other", p, sec.File),
					Fix:     fmt.Sprintf("rename the Secret in %s or the stack's writeOutputsToSecret.name in %s", sec.File, b.tf.File),
				})
			}
		}
		l.checkBackendSecrets(b, writers)
		l.checkVersions(b)
	}
	l.unit, l.unitStack = "", ""
}

// checkVersions checks that a stack's version and its OCIRepository's
// ref.semver are versions or constraints, and that a prod environment pins
// exact ones.
func (l *loader) checkVersions(b *built) {
	s := b.stack
	prod := l.env.Class == environment.ClassProd
	keyReported := false
	if cm := b.versions; cm != nil {
		switch {
		case !validVersion(s.Version):
			keyReported = true
			l.problem(diag.Problem{
				File:    cm.File,
				Object:  cm.ref(),
				Message: fmt.Sprintf("stack %q: %s is %q, which is neither a version nor a semver constraint", s.Name, s.VersionKey, s.Version),
				Fix:     fmt.Sprintf("set %s to an exact version (\"1.2.3\") or a constraint (\"~> 1.2.0\") in %s", s.VersionKey, cm.File),
			})
		case prod && s.Source.Digest == "" && !ExactVersion(s.Version):
			keyReported = true
			l.problem(diag.Problem{
				File:    cm.File,
				Object:  cm.ref(),
				Message: fmt.Sprintf("stack %q: %s is %q, a range; a prod environment must pin an exact version", s.Name, s.VersionKey, s.Version),
				Fix:     fmt.Sprintf("pin %s to one exact version, e.g. %q, in %s", s.VersionKey, exampleVersion(s.Version), cm.File),
			})
		}
	}
	src := b.source
	if src == nil || src.Spec.Ref.Semver == "" {
		return
	}
	v := src.Spec.Ref.Semver
	if keyReported && v == s.Version {
		return
	}
	switch {
	case !validVersion(v):
		l.problem(diag.Problem{
			File:    src.File,
			Object:  src.ref(),
			Message: fmt.Sprintf("stack %q: ref.semver is %q, which is not a semver constraint", s.Name, v),
			Fix:     fmt.Sprintf("set ref.semver to a version (\"1.2.3\") or a constraint (\"~> 1.2.0\") in %s", src.File),
		})
	case prod && src.Spec.Ref.Digest == "" && !ExactVersion(v):
		l.problem(diag.Problem{
			File:    src.File,
			Object:  src.ref(),
			Message: fmt.Sprintf("stack %q: ref.semver is %q, a range; a prod environment must pin an exact version or a digest", s.Name, v),
			Fix:     fmt.Sprintf("pin ref.semver to one exact version, e.g. %q, or set ref.digest in %s", exampleVersion(v), src.File),
		})
	}
}

// digest matches an OCI content digest.
var digest = regexp.MustCompile(`^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$`)

// ExactVersion reports whether v pins one version: a semantic version with
// no operator, or a digest.
func ExactVersion(v string) bool {
	return digest.MatchString(v) || ExactSemver(v)
}

// ExactSemver reports whether v names one semantic version, with no
// operator and no range (an optional leading "v" is allowed).
func ExactSemver(v string) bool {
	_, err := semver.StrictNewVersion(strings.TrimPrefix(v, "v"))
	return err == nil
}

// validVersion reports whether v is an exact version, a digest or a
// Masterminds semver constraint.
func validVersion(v string) bool {
	if ExactVersion(v) {
		return true
	}
	_, err := semver.NewConstraint(v)
	return err == nil
}

// versionInText finds the first version number in a constraint.
var versionInText = regexp.MustCompile(`\d+(?:\.\d+){0,2}`)

// exampleVersion suggests an exact version for a range.
func exampleVersion(r string) string {
	m := versionInText.FindString(r)
	if m == "" {
		return "1.0.0"
	}
	for strings.Count(m, ".") < 2 {
		m += ".0"
	}
	return m
}
