package environment

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// buildStack makes the model of one Terraform object brought in by the
// Kustomization k, checking its references to things outside the
// environment's stacks.
func (l *loader) buildStack(k *kustomization, tf *terraform) *built {
	s := &Stack{
		Name:              tf.Name(),
		File:              tf.File,
		Group:             k.Group,
		Kustomization:     k.Name(),
		KustomizationFile: k.File,
		Layer:             LayerServices,
		ApprovePlan:       tf.Spec.ApprovePlan,
		ForceUnlock:       tf.Spec.Tfstate.ForceUnlock,
	}
	b := &built{stack: s, tf: tf, k: k}
	l.checkTerraformFields(tf)
	switch s.ForceUnlock {
	case "", "no", "auto":
	default:
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.tfstate.forceUnlock is %q: strata never forces a lock whose holder may still be alive", s.ForceUnlock),
			Fix:     "use auto (a lock whose holder is provably dead is released) or no, and release any other lock with strata unlock ENV STACK LOCK_ID",
		})
	}
	if name, ok := tf.Metadata.Annotations[AnnotationLayer]; ok {
		layer, ok := ParseLayer(name)
		if !ok {
			l.problem(diag.Problem{
				File:    tf.File,
				Object:  tf.ref(),
				Message: fmt.Sprintf("annotation %s is %q, which is not a layer", AnnotationLayer, name),
				Fix:     fmt.Sprintf("set annotation %s to one of: %s", AnnotationLayer, strings.Join(LayerNames(), ", ")),
			})
		}
		s.Layer = layer
	}
	l.resolveSource(b)
	s.Vars = l.stackVars(b)
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
	}
	if c := tf.Metadata.Annotations[AnnotationContract]; c != "" {
		s.Produces = c
	}
	for _, in := range tf.Spec.ReadInputsFromSecrets {
		as := in.As
		if as == "" {
			as = strings.ReplaceAll(in.Name, "-", "_")
		}
		s.Consumes = append(s.Consumes, Input{Contract: in.Name, As: as})
	}
	s.ConsumesMatching = l.readContracts(tf)
	key := VersionKey(s.Name)
	for _, scope := range []string{k.Group, ""} {
		if cm := l.configMaps[scope][VersionsConfigMap]; cm != nil {
			if v, ok := cm.Data[key]; ok {
				s.Version, s.VersionKey, b.versions = v, key, cm
				break
			}
		}
	}
	return b
}

// readContracts parses the strata.dev/read-contracts annotation: one
// "variable: regex" per line.
func (l *loader) readContracts(tf *terraform) []MatchInput {
	value, ok := tf.Metadata.Annotations[AnnotationReadContracts]
	if !ok {
		return nil
	}
	var out []MatchInput
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
				Message: fmt.Sprintf("annotation %s line %q %s", AnnotationReadContracts, line, msg),
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
		out = append(out, MatchInput{As: as, Regex: re})
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
			Fix:     fmt.Sprintf("set spec.sourceRef to GitRepository %s (this repository) or to an OCIRepository defined next to %s", DefaultGitSource, tf.File),
		})
		return
	}
	s.Source = Source{Kind: ref.Kind, Name: ref.Name}
	if l.artifacts != nil {
		l.clusterSource(b)
		return
	}
	switch ref.Kind {
	case SourceGitRepository:
		if ref.Name != DefaultGitSource {
			l.problem(diag.Problem{
				File:    tf.File,
				Object:  tf.ref(),
				Message: fmt.Sprintf("spec.sourceRef names %s, but the only GitRepository strata reads is %s (this repository)", ref, DefaultGitSource),
				Fix:     fmt.Sprintf("use sourceRef GitRepository %s, or publish the code as an OCI artefact and refer to an OCIRepository", DefaultGitSource),
			})
			return
		}
		if ok {
			l.checkModuleDir(tf, p)
		}
	case SourceOCIRepository:
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
		s.Source.File = src.File
		s.Source.URL = src.Spec.URL
		s.Source.Semver = src.Spec.Ref.Semver
		s.Source.Tag = src.Spec.Ref.Tag
		s.Source.Digest = src.Spec.Ref.Digest
		s.Source.Insecure = src.Spec.Insecure
	default:
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.sourceRef is of kind %q, which strata does not read", ref.Kind),
			Fix:     fmt.Sprintf("use kind %s (name %s) or %s", SourceGitRepository, DefaultGitSource, SourceOCIRepository),
		})
	}
}

// checkModuleDir checks that the path of a stack whose code is in this
// repository is a directory holding *.tf files.
func (l *loader) checkModuleDir(tf *terraform, dir string) {
	fix := fmt.Sprintf("point spec.path at the directory of the stack's OpenTofu code, relative to the repository root (e.g. ./%s/terraform)", path.Dir(tf.File))
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
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".tf") {
			return
		}
	}
	l.problem(diag.Problem{
		File:    tf.File,
		Object:  tf.ref(),
		Message: fmt.Sprintf("spec.path %q holds no *.tf files", tf.Spec.Path),
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

// stackVars computes the stack's input variables: spec.vars, then
// spec.varsFrom (later entries win), as the Tofu Controller does.
func (l *loader) stackVars(b *built) map[string]any {
	tf := b.tf
	vars := map[string]any{}
	for _, v := range tf.Spec.Vars {
		if v.Name == "" || (len(v.Value) == 0 && len(v.ValueFrom) > 0) {
			continue
		}
		var value any
		if len(v.Value) > 0 {
			// The value came out of the YAML decoder as JSON.
			_ = json.Unmarshal(v.Value, &value)
		}
		vars[v.Name] = value
	}
	for _, vf := range tf.Spec.VarsFrom {
		for k, v := range l.varsFrom(b, vf) {
			vars[k] = v
		}
	}
	if len(vars) == 0 {
		return nil
	}
	return vars
}

// varsFrom returns the variables of one spec.varsFrom entry.
func (l *loader) varsFrom(b *built, vf valuesRef) map[string]any {
	tf := b.tf
	if vf.Kind == kindSecret {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: "varsFrom of kind Secret is not supported; use a ConfigMap or a contract",
			Fix:     fmt.Sprintf("move the values of Secret %s into a ConfigMap, or publish them as a contract and read it with spec.readInputsFromSecrets", vf.Name),
		})
		return nil
	}
	if vf.Kind != kindConfigMap {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("varsFrom entry %q is of kind %q; only ConfigMap is supported", vf.Name, vf.Kind),
			Fix:     "set the varsFrom entry's kind to ConfigMap",
		})
		return nil
	}
	cm := l.configMap(b.k.Group, vf.Name)
	if cm == nil {
		if !vf.Optional {
			l.problem(diag.Problem{
				File:    tf.File,
				Object:  tf.ref(),
				Message: fmt.Sprintf("spec.varsFrom names ConfigMap %q, which does not exist", vf.Name),
				Fix:     fmt.Sprintf("create ConfigMap %s in %s, or mark the entry optional: true", vf.Name, l.scopeDirs(b.k.Group)),
			})
		}
		return nil
	}
	vars := map[string]any{}
	if len(vf.VarsKeys) == 0 {
		for k, v := range cm.Data {
			vars[k] = v
		}
		return vars
	}
	for _, k := range vf.VarsKeys {
		v, ok := cm.Data[k]
		if !ok {
			if !vf.Optional {
				l.problem(diag.Problem{
					File:    tf.File,
					Object:  tf.ref(),
					Message: fmt.Sprintf("spec.varsFrom names key %q of ConfigMap %s, which has no such key", k, vf.Name),
					Fix:     fmt.Sprintf("add %s to ConfigMap %s in %s, or remove it from varsKeys", k, vf.Name, cm.File),
				})
			}
			continue
		}
		vars[k] = v
	}
	return vars
}
