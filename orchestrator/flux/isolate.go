package flux

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/strata-iac/strata/internal/regularfile"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// isolateProblems sorts the problems found as Flux's reconciles would
// meet them. A problem of the whole environment (the entry directory, the
// init ConfigMap) stays a problem: nothing runs. A problem of a stack
// holds that stack back; one of a Kustomization holds back the stacks it
// brings in, and those of the Kustomizations it renders or that depend on
// it; a stack that depends on a stack held back, or reads its contract,
// is held back too. What holds back no stack is a warning. The stacks
// held back leave l.stacks for l.env.Blocked.
func (l *loader) isolateProblems() {
	var global diag.Problems
	byK := map[string]diag.Problems{}
	byS := map[string]diag.Problems{}
	for _, p := range l.sortedProblems() {
		switch {
		case p.Stack != "":
			byS[p.Stack] = append(byS[p.Stack], p)
		case p.Kustomization != "" && l.kustomizations[p.Kustomization] != nil:
			byK[p.Kustomization] = append(byK[p.Kustomization], p)
		default:
			global = append(global, p)
		}
	}
	ks := l.sortedKustomizations()
	// unbuilt says which Kustomizations could not be built and may have
	// brought in stacks (mayHoldStacks reads their directories, once).
	unbuilt := map[string]bool{}
	for _, k := range ks {
		if k.unbuilt != "" && l.mayHoldStacks(k) {
			unbuilt[k.unit()] = true
		}
	}
	holds := l.holdsStacks(ks, unbuilt)
	// Which Kustomizations are held back, why, and by which one's
	// problems; waits says the reason is only inputs that live in the
	// cluster, so that what they bring in waits rather than is blocked.
	why := map[string]string{}
	root := map[string]string{}
	waits := map[string]bool{}
	for _, k := range ks {
		if ps := byK[k.unit()]; len(ps) > 0 {
			why[k.unit()], root[k.unit()] = summary(ps), k.unit()
			waits[k.unit()] = outOfReach(ps)
		}
	}
	state := func(name string) string {
		if waits[name] {
			return "waiting"
		}
		return "blocked"
	}
	for changed := true; changed; {
		changed = false
		for _, k := range ks {
			name := k.unit()
			if why[name] != "" && !waits[name] {
				// Blocked already: nothing worse can come. One that
				// waits is blocked by a parent or a dependency that is.
				continue
			}
			// What holds it back: a parent or a dependency blocked
			// before one waiting.
			var up, how string
			consider := func(u, h string) {
				if why[u] == "" || (up != "" && (!waits[up] || waits[u])) {
					return
				}
				up, how = u, h
			}
			if p := k.Parent; p != "" {
				consider(p, "Kustomization "+p+", which brings it in,")
			}
			for _, d := range k.Spec.DependsOn {
				dep, _ := l.dependency(k, d)
				if !holds[dep] && outOfReach(byK[root[dep]]) {
					// A Kustomization that brings in no stack (the one
					// that installs the Tofu Controller) and is held back
					// only by what Flux reaches in the cluster holds no
					// stack back in Git mode: there it would be Ready.
					continue
				}
				consider(dep, "it depends on Kustomization "+dep+", which")
			}
			if up == "" || (why[name] != "" && waits[name] == waits[up]) {
				continue
			}
			why[name], root[name], waits[name] = fmt.Sprintf("%s is %s: %s", how, state(up), why[root[up]]), root[up], waits[up]
			changed = true
		}
	}
	blocks := map[string]bool{} // the Kustomizations whose problems hold something back
	var blocked []environment.Blocked
	// broken are the Kustomizations built with an object that may be a
	// stack broken: blocked as a whole when no stack of theirs is.
	var broken []*kustomization
	for _, k := range ks {
		if why[k.unit()] == "" {
			continue
		}
		// What it would bring in is not known: its build failed, or an
		// object of it that may be a stack is broken (Flux applies
		// nothing of a Kustomization whose build or dry-run fails).
		if k.unbuilt == "" && root[k.unit()] == k.unit() && !waits[k.unit()] && l.brokenStack(byK[k.unit()]) {
			broken = append(broken, k)
			continue
		}
		if !unbuilt[k.unit()] {
			continue
		}
		blocks[root[k.unit()]] = true
		blocked = append(blocked, environment.Blocked{
			File: k.File, Kustomization: k.unit(), KustomizationFile: k.File,
			Waiting:  waits[k.unit()],
			Reason:   why[k.unit()] + "; the stacks it would bring in are not known",
			Problems: byK[root[k.unit()]],
		})
	}
	stackWhy := map[string]*environment.Blocked{}
	for _, b := range l.stacks {
		s := b.stack
		bl := environment.Blocked{Stack: s.Name, File: s.File, Kustomization: s.Kustomization, KustomizationFile: s.KustomizationFile}
		switch {
		case len(byS[s.Name]) > 0:
			ps := byS[s.Name]
			bl.Problems, bl.Reason = ps, summary(ps)
			bl.Waiting = !slices.ContainsFunc(ps, func(p diag.Problem) bool { return p.Code != diag.CodeInputMissing })
		case why[b.k.unit()] != "" && root[b.k.unit()] == b.k.unit() && onlySubstitution(byK[b.k.unit()]) && !usesVariables(b.tf):
			// Its Kustomization waits only for what it substitutes from,
			// and nothing in the object is substituted: the object is the
			// same whatever that holds, as Flux would apply it.
			continue
		case why[b.k.unit()] != "":
			r := root[b.k.unit()]
			blocks[r] = true
			bl.Problems = byK[r]
			// A Kustomization that waits only for inputs brings its
			// stacks in as they render without them: they wait too.
			bl.Waiting = waits[b.k.unit()]
			bl.Reason = fmt.Sprintf("Kustomization %s (%s): %s", b.k.unit(), b.k.File, why[b.k.unit()])
		default:
			continue
		}
		stackWhy[s.Name] = &bl
	}
	producers := map[string]string{}
	for _, b := range l.stacks {
		if b.stack.Produces != "" {
			producers[b.stack.Produces] = b.stack.Name
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range l.stacks {
			s := b.stack
			if stackWhy[s.Name] != nil {
				continue
			}
			up, how := "", ""
			for _, d := range s.DependsOn {
				if stackWhy[d] != nil {
					up, how = d, "it depends on stack "+d
					break
				}
			}
			if up == "" {
				for _, c := range s.ContractsRead() {
					if p := producers[c]; p != "" && stackWhy[p] != nil {
						up, how = p, fmt.Sprintf("it reads contract %s of stack %s", c, p)
						break
					}
				}
			}
			if up == "" {
				for _, m := range s.ConsumesMatching {
					for c, p := range producers {
						if p != s.Name && stackWhy[p] != nil && m.Matches(c) {
							up, how = p, fmt.Sprintf("it reads contract %s of stack %s (matches %s)", c, p, m.Regex)
							break
						}
					}
					if up != "" {
						break
					}
				}
			}
			if up == "" {
				continue
			}
			u := stackWhy[up]
			state := "blocked"
			if u.Waiting {
				state = "waiting"
			}
			stackWhy[s.Name] = &environment.Blocked{
				Stack: s.Name, File: s.File, Kustomization: s.Kustomization, KustomizationFile: s.KustomizationFile,
				Waiting:  u.Waiting,
				Reason:   fmt.Sprintf("%s, which is %s: %s", how, state, u.Reason),
				Problems: u.Problems,
			}
			changed = true
		}
	}
	// A Terraform object whose problems kept it from becoming a stack (a
	// name that is not one) is blocked as an object: no stack of that
	// name runs, and none missing is taken as removed.
	for _, name := range slices.Sorted(maps.Keys(byS)) {
		if stackWhy[name] != nil || slices.ContainsFunc(l.stacks, func(b *built) bool { return b.stack.Name == name }) {
			continue
		}
		ps := byS[name]
		blocks[ps[0].Kustomization] = true
		blocked = append(blocked, environment.Blocked{File: ps[0].File, Kustomization: ps[0].Kustomization, Reason: summary(ps), Problems: ps})
	}
	kept := l.stacks[:0]
	for _, b := range l.stacks {
		if bl := stackWhy[b.stack.Name]; bl != nil {
			if bl.Waiting {
				bl.Held = b.stack
			}
			blocked = append(blocked, *bl)
			continue
		}
		kept = append(kept, b)
	}
	l.stacks = kept
	for _, k := range broken {
		if blocks[k.unit()] {
			continue
		}
		blocks[k.unit()] = true
		blocked = append(blocked, environment.Blocked{
			File: k.File, Kustomization: k.unit(), KustomizationFile: k.File,
			Reason:   why[k.unit()] + "; the stacks it would bring in are not known",
			Problems: byK[k.unit()],
		})
	}
	l.env.Blocked = blocked
	for _, k := range ks {
		if ps := byK[k.unit()]; len(ps) > 0 && !blocks[k.unit()] {
			l.env.Warnings = append(l.env.Warnings, ps...)
		}
	}
	l.problems = global
}

// stackKind matches a manifest line that makes a Terraform object or a
// Flux Kustomization, whatever its API group says (kustomize's own
// kustomization files are not looked at).
var stackKind = regexp.MustCompile(`(?m)^\s*kind:\s*["']?(Terraform|Kustomization)["']?\s*$`)

// brokenStack reports whether one of a Kustomization's problems is of an
// object that may be a stack: one named Terraform/…, or one of a file that
// defines a Terraform object or a Kustomization (a duplicate key, a
// misspelt API group, a name that is a number). A problem that only waits
// for what lives in the cluster (the Kustomization's own substituteFrom
// Secret) breaks nothing, though its file defines a Kustomization.
func (l *loader) brokenStack(ps diag.Problems) bool {
	for _, p := range ps {
		if outOfReach(diag.Problems{p}) {
			continue
		}
		if strings.HasPrefix(p.Object, kindTerraform+"/") {
			return true
		}
		if p.File == "" || !isManifest(p.File) || isKustomizeFile(p.File) {
			continue
		}
		b, err := regularfile.ReadFile(l.abs(p.File), MaxManifestBytes)
		if err != nil {
			continue
		}
		if stackKind.Match(b) {
			return true
		}
	}
	return false
}

// onlySubstitution reports whether every problem is a postBuild.substituteFrom
// ConfigMap or Secret that lives in the cluster.
func onlySubstitution(ps diag.Problems) bool {
	return !slices.ContainsFunc(ps, func(p diag.Problem) bool {
		return p.Code != diag.CodeInputMissing || !strings.Contains(p.Message, "(postBuild.substituteFrom)")
	})
}

// usesVariables reports whether a Terraform object, as built, holds a
// postBuild variable (${…}), substituted or not: a substituteFrom waited
// for may set it (a default, ${x:=3}, included), or any variable the
// inputs before it set.
func usesVariables(tf *terraform) bool { return tf.variables }

// outOfReach reports whether every problem is one of what Flux reaches in
// the cluster and strata does not here: an input, a remote base.
func outOfReach(ps diag.Problems) bool {
	return !slices.ContainsFunc(ps, func(p diag.Problem) bool {
		return p.Code != diag.CodeInputMissing && p.Code != diag.CodeUnreachable
	})
}

// holdsStacks says, by name, which Kustomizations bring in a stack, by
// themselves or through the Kustomizations they render, or may (those of
// unbuilt, which could not be built: see mayHoldStacks).
func (l *loader) holdsStacks(ks []*kustomization, unbuilt map[string]bool) map[string]bool {
	holds := map[string]bool{}
	for _, k := range ks {
		if a := l.apps[k.unit()]; (a != nil && len(a.terraforms) > 0) || unbuilt[k.unit()] || k.appliesEntry && l.entry != nil && len(l.entry.terraforms) > 0 {
			holds[k.unit()] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, k := range ks {
			if p := k.Parent; holds[k.unit()] && p != "" && !holds[p] {
				holds[p], changed = true, true
			}
		}
	}
	return holds
}

// summary is the first problem's message, and how many more there are.
func summary(ps diag.Problems) string {
	s := ps[0].Message
	if ps[0].Object != "" && !strings.Contains(s, ps[0].Object) {
		s = ps[0].Object + ": " + s
	}
	s = ps[0].File + ": " + s
	if len(ps) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(ps)-1)
	}
	return s
}

// fluxObjects matches the apiVersion of a Terraform object or a Flux
// Kustomization in a manifest.
var fluxObjects = regexp.MustCompile(`(?m)^\s*apiVersion:\s*["']?(infra\.contrib\.fluxcd\.io|kustomize\.toolkit\.fluxcd\.io)/`)

// maxScanned bounds the files mayHoldStacks reads.
const maxScanned = 5000

// mayHoldStacks reports whether a Kustomization that could not be built
// may have brought in stacks: its spec.path does not exist here (a
// variable left in it, another source), or a manifest under it is a
// Terraform object or a Flux Kustomization. A Kustomization of unrelated
// apps (a HelmRelease with a remote base) holds none, and its problems
// are warnings.
func (l *loader) mayHoldStacks(k *kustomization) bool {
	dir, ok := cleanPath(k.unbuilt)
	if !ok || k.Spec.SourceRef == nil || k.Spec.SourceRef.Kind != environment.SourceGitRepository || k.Spec.SourceRef.Name != environment.DefaultGitSource {
		return true
	}
	abs := l.abs(dir)
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return true
	}
	found, scanned := false, 0
	_ = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || found:
			return filepath.SkipAll
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != abs:
			return filepath.SkipDir
		case d.IsDir() || !isManifest(p):
			return nil
		}
		if scanned++; scanned > maxScanned {
			found = true
			return filepath.SkipAll
		}
		if b, err := regularfile.ReadFile(p, MaxManifestBytes); err == nil && fluxObjects.Match(b) {
			found = true
		}
		return nil
	})
	return found
}
