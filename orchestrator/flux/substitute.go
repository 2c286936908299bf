package flux

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fluxcd/pkg/kustomize"
	yaml3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// substitutionVars collects the variables of a Kustomization's postBuild:
// the substituteFrom ConfigMaps in order (later ones win), then the
// substitute entries, which win over all of them. As Flux does, newlines
// are removed from the values.
func (l *loader) substitutionVars(k *kustomization) map[string]string {
	vars := map[string]string{}
	pb := k.Spec.PostBuild
	k.fromCluster = nil
	if pb == nil {
		return vars
	}
	for _, ref := range pb.SubstituteFrom {
		var src *object
		var data map[string]string
		inRepo := false
		switch ref.Kind {
		case kindConfigMap:
			if cm := l.configMap(k.Group, ref.Name); cm != nil {
				src, data = &cm.object, cm.Data
			}
			rc := l.repoConfigMap(k.Group, ref.Name)
			inRepo = rc != nil && !rc.noKey
		case kindSecret:
			if sec := l.secret(k.Group, ref.Name); sec != nil {
				src, data = &sec.object, sec.Data
			}
			rs := l.repoSecret(k.Group, ref.Name)
			inRepo = rs != nil && !rs.noKey
		default:
			l.problem(diag.Problem{
				File:    k.File,
				Object:  k.ref(),
				Message: fmt.Sprintf("postBuild.substituteFrom entry %q is of kind %q; Flux reads ConfigMap or Secret", ref.Name, ref.Kind),
				Fix:     "set the substituteFrom entry's kind to ConfigMap or Secret",
			})
			continue
		}
		if !inRepo {
			// It lives in the cluster: a variable it lacks is asked of
			// whoever gives it (substitutionProblem).
			k.fromCluster = append(k.fromCluster, diag.Input{Kind: ref.Kind, Namespace: namespaceOf(&k.object), Name: ref.Name})
		}
		if src == nil {
			if !ref.Optional {
				l.missing(diag.MissingInput(k.File, k.ref(), "postBuild.substituteFrom", ref.Kind, namespaceOf(&k.object), ref.Name), ref.Kind, namespaceOf(&k.object), ref.Name)
			}
			continue
		}
		for name, v := range data {
			if !environment.ValidVarName(name) {
				l.problem(diag.Problem{
					File:    src.File,
					Object:  src.ref(),
					Message: fmt.Sprintf("key %q is not a valid substitution variable name, and the %s is used in postBuild.substituteFrom", name, ref.Kind),
					Fix:     fmt.Sprintf("rename the key to match [_a-zA-Z][_a-zA-Z0-9]*, e.g. %q", validName(name)),
				})
				continue
			}
			vars[name] = strings.ReplaceAll(v, "\n", "")
		}
	}
	for name, v := range pb.Substitute {
		if !environment.ValidVarName(name) {
			l.problem(diag.Problem{
				File:    k.File,
				Object:  k.ref(),
				Message: fmt.Sprintf("postBuild.substitute has the variable %q, whose name is not valid", name),
				Fix:     fmt.Sprintf("rename it to match [_a-zA-Z][_a-zA-Z0-9]*, e.g. %q", validName(name)),
			})
			continue
		}
		vars[name] = strings.ReplaceAll(v, "\n", "")
	}
	return vars
}

// validName suggests a valid variable name for name.
func validName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// substituteObject runs Flux's postBuild substitution on one rendered
// object with fluxcd/pkg/kustomize, strictly: a variable that is missing
// and has no default is a problem naming it. An object annotated or
// labelled kustomize.toolkit.fluxcd.io/substitute: disabled is left as it
// is. As kustomize-controller does, nothing is substituted when the
// Kustomization has no postBuild, or no variables and its
// postBuild.substituteStrategy is not Always.
//
// On a problem the object comes back unsubstituted, so that the rest of it
// is still checked; the environment has a problem and will not run.
func (l *loader) substituteObject(k *kustomization, o renderedObject, vars map[string]string) (renderedObject, bool) {
	pb := k.Spec.PostBuild
	always := pb != nil && pb.SubstituteStrategy == substituteAlways
	if pb == nil || len(vars) == 0 && !always {
		return o, true
	}
	strict := l.opts.StrictSubstitution || !l.isolate || isStack(o.Object)
	if !strict && strings.Contains(fmt.Sprint(o.Object), "${") {
		l.noteUnset(o, vars)
	}
	if m, held, ok := substituteScalars(o.Object, vars, strict); ok {
		// The same object as Flux's round trip through YAML gives,
		// without it (substitutescalars.go).
		if isStack(o.Object) {
			o.substituted = held
		}
		o.Object, o.res = m, nil
		return o, true
	}
	sub := make(map[string]any, len(vars))
	for n, v := range vars {
		sub[n] = v
	}
	spec := unstructured.Unstructured{Object: map[string]any{
		"spec": map[string]any{"postBuild": map[string]any{"substitute": sub}},
	}}
	// Substitute the resource as built, as kustomize-controller does. Its
	// YAML has lost the files' quotes: a value that reads as another YAML
	// type (yes, 1.0) or syntax (">= 1") after substitution is that, in
	// Flux as here.
	res, err := o.res, error(nil)
	if res == nil {
		res, err = provider.NewDefaultDepProvider().GetResourceFactory().FromMap(o.Object)
	}
	if err == nil {
		// Wide mappings substitution leaves alone are read past it, as
		// past kustomize's reader (see elideForSubstitution).
		e := newElision()
		e.transform = substituted
		if !elideWide {
			e.key = "" // nothing is elided
		} else if path, keys := e.elideForSubstitution(res.YNode()); keys > 0 {
			_ = e.restoreNode(res.YNode())
			p := widthProblem(o.File, path, 0, keys, fmt.Sprintf("postBuild substitution of Kustomization/%s must read it, since it holds a $", k.Name()))
			p.Object = k.ref()
			l.problem(p)
			return o, true
		}
		var out *resource.Resource
		before := res.YNode()
		out, err = kustomize.SubstituteVariables(l.ctx, nil, spec, res,
			kustomize.SubstituteWithDryRun(true), kustomize.SubstituteWithStrict(strict), kustomize.SubstituteWithAlways(always))
		if res.YNode() == before {
			// Not substituted (disabled, failed, or no variable): the
			// object is as it was built.
			e.transform = nil
		} else if isStack(o.Object) {
			o.substituted = holdsVariable(before)
		}
		if rerr := e.restoreNode(res.YNode()); e.key != "" && err == nil && rerr != nil {
			err = fmt.Errorf("substitution changed a mapping it does not hold a variable of: %w", rerr)
		}
		if err == nil {
			if out == nil {
				return o, true
			}
			var m map[string]any
			if m, err = objectMap(out); err == nil {
				o.Object, o.res = m, nil
				return o, true
			}
		}
	}
	l.problem(l.substitutionProblem(k, o, err, vars))
	return o, true
}

// holdsVariable reports whether a YAML tree holds a postBuild variable
// (${…}) in a key or a value.
func holdsVariable(n *yaml3.Node) bool {
	if n == nil {
		return false
	}
	if strings.Contains(n.Value, "${") {
		return true
	}
	return slices.ContainsFunc(n.Content, holdsVariable)
}

// isStack reports whether a rendered object is a Terraform object, whose
// variables are substituted strictly: a stack never runs with a value
// that came out empty.
func isStack(obj map[string]any) bool {
	m := meta{APIVersion: fmt.Sprint(obj["apiVersion"]), Kind: fmt.Sprint(obj["kind"])}
	return m.group() == groupInfra && m.Kind == kindTerraform
}

// maxUnset bounds the variables noteUnset looks for in one object.
const maxUnset = 64

// noteUnset finds the variables of an object that postBuild substitution
// leaves empty, as kustomize-controller does by default (its
// StrictPostBuildSubstitutions feature gate off), and keeps them in
// l.unset: a stack that uses the object (its OCIRepository, a ConfigMap
// of its variables) is held back for them. It substitutes strictly, each
// missing variable found set empty for the next try; what the object
// becomes is the lenient substitution's, done after.
func (l *loader) noteUnset(o renderedObject, vars map[string]string) {
	names := l.unsetNames(o, vars)
	if len(names) == 0 {
		return
	}
	u := unstructured.Unstructured{Object: o.Object}
	if l.unset == nil {
		l.unset = map[string][]string{}
	}
	l.unset[unsetKey(o.File, u.GetKind()+"/"+u.GetName())] = names
}

// unsetNames returns the variables of an object that vars
// do not define and that have no default, in the order substitution
// meets them (at most maxUnset): it substitutes strictly, each missing
// variable found set empty for the next try.
func (l *loader) unsetNames(o renderedObject, vars map[string]string) []string {
	try := make(map[string]any, len(vars))
	for k, v := range vars {
		try[k] = v
	}
	var names []string
	for range maxUnset {
		res, err := provider.NewDefaultDepProvider().GetResourceFactory().FromMap(o.Object)
		if err != nil {
			break
		}
		spec := unstructured.Unstructured{Object: map[string]any{
			"spec": map[string]any{"postBuild": map[string]any{"substitute": try}},
		}}
		_, err = kustomize.SubstituteVariables(l.ctx, nil, spec, res,
			kustomize.SubstituteWithDryRun(true), kustomize.SubstituteWithStrict(true), kustomize.SubstituteWithAlways(true))
		if err == nil {
			break
		}
		sm := notSet.FindStringSubmatch(err.Error())
		if sm == nil {
			break
		}
		name := sm[1]
		if _, seen := try[name]; seen {
			break
		}
		names = append(names, name)
		try[name] = ""
	}
	return names
}

// unsetKey keys an object by its file and Kind/name.
func unsetKey(file, ref string) string { return file + "\x00" + ref }

// checkUnset holds a stack back for the variables that substitution left
// empty in an object it uses, the object of file and ref ("Kind/name"):
// Flux would run it with those values empty.
func (l *loader) checkUnset(b *built, file, ref, use string) {
	names := l.unset[unsetKey(file, ref)]
	if len(names) == 0 {
		return
	}
	stack := l.stackName(b.tf)
	l.problem(diag.Problem{
		File:    file,
		Object:  ref,
		Message: fmt.Sprintf("%s of stack %s: variable(s) %s not defined, so postBuild substitution leaves them empty", use, stack, strings.Join(names, ", ")),
		Fix: fmt.Sprintf("define %s in postBuild.substitute or postBuild.substituteFrom of Kustomization %s (%s), or give a default with ${%s:=value}",
			strings.Join(names, ", "), b.k.Name(), b.k.File, names[0]),
		Stack: stack,
	})
}

// notSet matches the library's error for a variable that is missing.
var notSet = regexp.MustCompile(`variable not set \(strict mode\): "([^"]*)"`)

// substitutionProblem maps a substitution error onto a problem of the
// object's file.
func (l *loader) substitutionProblem(k *kustomization, o renderedObject, err error, vars map[string]string) diag.Problem {
	object := ""
	if u := (unstructured.Unstructured{Object: o.Object}); u.GetKind() != "" && u.GetName() != "" {
		object = u.GetKind() + "/" + u.GetName()
	}
	if m := notSet.FindStringSubmatch(err.Error()); m != nil && len(k.fromCluster) > 0 {
		// A variable a ConfigMap or Secret of the cluster may hold: ask
		// for it with the others the object lacks.
		names := l.unsetNames(o, vars)
		if len(names) == 0 {
			names = []string{m[1]}
		}
		in := k.fromCluster[len(k.fromCluster)-1]
		p := diag.MissingInputOr(o.File, object, fmt.Sprintf("variable(s) %s, postBuild.substituteFrom of Kustomization/%s", strings.Join(names, ", "), k.Name()),
			in.Kind, in.Namespace, in.Name, fmt.Sprintf("define them in postBuild.substitute of Kustomization %s in %s", k.Name(), k.File))
		why := "no ConfigMap or Secret of the repository defines them, nor one given;"
		if given := l.inputs[environment.InputKey(in.Kind, in.Namespace, in.Name)]; given != nil && given.failed == nil {
			why = fmt.Sprintf("%s %s given with --inputs or --kubeconfig has no such key;", in.Kind, in.Name)
		} else if s := l.repoSecret(k.Group, in.Name); in.Kind == kindSecret && s != nil && s.noKey {
			why = fmt.Sprintf("they may be keys of Secret %s, SOPS-encrypted in %s, which strata holds no key to;", in.Name, s.File)
		}
		p.Message = strings.Replace(p.Message, "it is not in the repository;", why, 1)
		p.Input.Keys = names
		return p
	}
	if m := notSet.FindStringSubmatch(err.Error()); m != nil {
		target := "ConfigMap " + InitConfigMap + " (and list it in postBuild.substituteFrom)"
		first := true
		for _, ref := range k.Spec.PostBuild.SubstituteFrom {
			if ref.Kind == kindConfigMap && (first || ref.Name == InitConfigMap) {
				target, first = "ConfigMap "+ref.Name, false
			}
		}
		return diag.Problem{
			File:    o.File,
			Object:  object,
			Message: fmt.Sprintf("variable %q is not defined", m[1]),
			Fix: fmt.Sprintf("add it to postBuild.substitute of Kustomization %s in %s or to %s, or give a default with ${%s:=value}",
				k.Name(), k.File, target, m[1]),
		}
	}
	msg := strings.TrimPrefix(err.Error(), "envsubst error: ")
	msg = strings.TrimPrefix(msg, "variable substitution failed: ")
	return diag.Problem{
		File:    o.File,
		Object:  object,
		Message: fmt.Sprintf("postBuild substitution of Kustomization %s failed: %s", k.Name(), msg),
		Fix: fmt.Sprintf("write variables as ${name} or ${name:=default} with names matching [_a-zA-Z][_a-zA-Z0-9]*, write a literal ${ as $${, or annotate the object %s: disabled, in %s",
			annotationSubstitute, o.File),
	}
}
