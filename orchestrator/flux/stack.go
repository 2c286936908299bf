package flux

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/strata-iac/strata/internal/tofufiles"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/rendercache"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// buildStack makes the model of one Terraform object brought in by the
// Kustomization k, checking its references to things outside the
// environment's stacks.
func (l *loader) buildStack(k *kustomization, tf *terraform) *built {
	s := &environment.Stack{
		Name:              tf.Name(),
		File:              tf.File,
		Group:             k.Group,
		Kustomization:     k.Name(),
		KustomizationFile: k.File,
		Layer:             environment.LayerServices,
		ApprovePlan:       tf.Spec.ApprovePlan,
		ForceUnlock:       tf.Spec.Tfstate.ForceUnlock,
		LockIdentifier:    tf.Spec.Tfstate.LockIdentifier,
		Suspend:           tf.Spec.Suspend,

		DisableDriftDetection:      tf.Spec.DisableDriftDetection,
		DestroyResourcesOnDeletion: tf.Spec.DestroyResourcesOnDeletion,
	}
	b := &built{stack: s, tf: tf, k: k}
	l.checkTerraformFields(tf)
	if tf.rawJSON != nil {
		// Decoded for the checks only: rawJSON keeps the object.
		tf.raw = nil
	}
	l.checkForceUnlock(tf)
	s.Interval = l.duration(tf, "interval", tf.Spec.Interval)
	s.RetryInterval = l.duration(tf, "retryInterval", tf.Spec.RetryInterval)
	s.Run = environment.Run{
		Targets:            tf.Spec.Targets,
		Parallelism:        tf.Spec.Parallelism,
		RefreshBeforeApply: tf.Spec.RefreshBeforeApply,
		PlanOnly:           tf.Spec.PlanOnly,
		Force:              tf.Spec.Force,
		Destroy:            tf.Spec.Destroy,
		Files:              l.fileMappings(b),
		BackendConfigs:     l.backendConfigs(b),
		Env:                l.runnerEnv(b),
	}
	if ws := tf.Spec.Workspace; ws != "default" {
		s.Run.Workspace = ws
	}
	if name, ok := tf.Metadata.Annotations[environment.AnnotationLayer]; ok {
		layer, ok := environment.ParseLayer(name)
		if !ok {
			l.problem(diag.Problem{
				File:    tf.File,
				Object:  tf.ref(),
				Message: fmt.Sprintf("annotation %s is %q, which is not a layer", environment.AnnotationLayer, name),
				Fix:     fmt.Sprintf("set annotation %s to one of: %s", environment.AnnotationLayer, strings.Join(environment.LayerNames(), ", ")),
			})
		}
		s.Layer = layer
	}
	l.resolveSource(b)
	l.stackVars(b)
	deps := map[string]bool{}
	for _, d := range tf.Spec.DependsOn {
		deps[d.Name] = true
	}
	for _, d := range k.Spec.DependsOn {
		if a := l.apps[d.Name]; a != nil {
			for _, t := range a.terraforms {
				deps[t.Name()] = true
			}
		}
	}
	for d := range deps {
		s.DependsOn = append(s.DependsOn, d)
	}
	sort.Strings(s.DependsOn)
	if bc := tf.Spec.BackendConfig; bc != nil {
		s.BackendConfig = bc.CustomConfiguration
	}
	if w := tf.Spec.WriteOutputsToSecret; w != nil {
		s.Produces = w.Name
		s.ProducesOutputs = w.Outputs
		for _, o := range w.Outputs {
			if _, _, err := tcdata.Rename(o); err != nil {
				l.problem(diag.Problem{
					File:    tf.File,
					Object:  tf.ref(),
					Message: fmt.Sprintf("spec.writeOutputsToSecret.outputs: %v", err),
					Fix:     fmt.Sprintf("write each output as name or old:new in %s", tf.File),
				})
			}
		}
	}
	if c := tf.Metadata.Annotations[environment.AnnotationContract]; c != "" {
		s.Produces = c
	}
	l.readInputs(b)
	l.values(b)
	s.ConsumesMatching = l.readContracts(tf)
	key := VersionKey(s.Name)
	for _, scope := range []string{k.Group, ""} {
		if cm := l.configMaps.get(scope, VersionsConfigMap, namespaceOf(&tf.object)); cm != nil {
			if v, ok := cm.Data[key]; ok {
				s.Version, s.VersionKey, b.versions = v, key, cm
				break
			}
		}
	}
	return b
}

// checkForceUnlock checks spec.tfstate: forceUnlock is no, auto or yes,
// and yes names the one lock it releases.
func (l *loader) checkForceUnlock(tf *terraform) {
	fu, id := tf.Spec.Tfstate.ForceUnlock, tf.Spec.Tfstate.LockIdentifier
	switch {
	case fu == "" || fu == environment.ForceUnlockNo || fu == environment.ForceUnlockAuto:
	case fu == environment.ForceUnlockYes && id == "":
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: `spec.tfstate.forceUnlock is "yes" without spec.tfstate.lockIdentifier: strata releases only the lock a person names`,
			Fix:     "set spec.tfstate.lockIdentifier to the ID of the lock to release (the run log names it), or use auto to release a lock whose holder is provably dead",
		})
	case fu == environment.ForceUnlockYes:
	default:
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.tfstate.forceUnlock is %q, which is not yes, no or auto", fu),
			Fix:     "use auto (a lock whose holder is provably dead is released), yes with spec.tfstate.lockIdentifier (that lock is released), or no",
		})
	}
}

// duration parses a duration field of a Terraform object's spec, as
// Kubernetes parses a metav1.Duration; 0 when the field is unset.
func (l *loader) duration(tf *terraform, field, value string) time.Duration {
	if value == "" {
		return 0
	}
	d, err := time.ParseDuration(value)
	if err == nil && d > 0 {
		return d
	}
	l.problem(diag.Problem{
		File:    tf.File,
		Object:  tf.ref(),
		Message: fmt.Sprintf("spec.%s is %q, which is not a positive duration", field, value),
		Fix:     fmt.Sprintf("write spec.%s as a Go duration such as 30m, 1h or 90s in %s", field, tf.File),
	})
	return 0
}

// readContracts parses the strata.dev/read-contracts annotation: one
// "variable: regex" per line.
func (l *loader) readContracts(tf *terraform) []environment.MatchInput {
	value, ok := tf.Metadata.Annotations[environment.AnnotationReadContracts]
	if !ok {
		return nil
	}
	var out []environment.MatchInput
	for _, line := range strings.Split(value, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		as, re, found := strings.Cut(line, ":")
		as, re = strings.TrimSpace(as), strings.TrimSpace(re)
		bad := func(msg string) {
			l.problem(diag.Problem{
				File:    tf.File,
				Object:  tf.ref(),
				Message: fmt.Sprintf("annotation %s line %q %s", environment.AnnotationReadContracts, line, msg),
				Fix:     "write one \"variable: regex\" per line, e.g. \"configuration: (account|network)\"",
			})
		}
		switch {
		case !found || as == "" || re == "":
			bad("is not \"variable: regex\"")
			continue
		case !ValidVarName(as):
			bad(fmt.Sprintf("names variable %q, which is not a valid variable name", as))
			continue
		}
		if _, err := regexp.Compile("^(?:" + re + ")$"); err != nil {
			bad(fmt.Sprintf("has a regular expression that does not compile: %v", err))
			continue
		}
		out = append(out, environment.MatchInput{As: as, Regex: re})
	}
	return out
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
	ref := tf.Spec.SourceRef
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
		l.checkUnset(b, &src.object, "the source")
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
// .tofu.json.
func (l *loader) checkModuleDir(tf *terraform, dir string) {
	fix := fmt.Sprintf("point spec.path at the directory of the stack's OpenTofu code, relative to the repository root (e.g. ./%s/terraform)", path.Dir(tf.File))
	if l.rec != nil {
		l.rec.Probe(rendercache.List, l.abs(dir))
	}
	entries, err := os.ReadDir(l.abs(dir))
	if err != nil {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.path %q is not a directory of this repository", tf.Spec.Path),
			Fix:     fix,
		})
		return
	}
	for _, e := range entries {
		if !e.IsDir() && tofufiles.IsCode(e.Name()) {
			return
		}
	}
	l.problem(diag.Problem{
		File:    tf.File,
		Object:  tf.ref(),
		Message: fmt.Sprintf("spec.path %q holds no .tf, .tf.json, .tofu or .tofu.json files", tf.Spec.Path),
		Fix:     fix,
	})
}

// findSource finds the OCIRepository a Terraform object refers to: first
// one in the same directory, then one anywhere the environment loaded.
func (l *loader) findSource(tf *terraform, name string) *ociRepository {
	var found *ociRepository
	for _, k := range l.sortedKustomizations() {
		for _, src := range l.apps[k.Name()].sources {
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
