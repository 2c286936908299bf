package flux

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"text/template"

	sprig "github.com/go-task/slim-sprig/v3"
	"github.com/gosimple/slug"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/recovered"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/yamllimits"
)

// A Flux Operator ResourceSet makes objects from templates, once per
// input set: the cluster applies what the operator makes, not the
// ResourceSet itself. Repositories that bootstrap with the operator make
// their Flux Kustomizations this way (one per namespace of a list), so
// the loader expands a ResourceSet where a build renders it, as the
// operator's builder does, and reads what it makes as the build's own
// objects:
//   - each of spec.inputs is an input set, with the ResourceSet as its
//     provider (inputs.provider);
//   - each of spec.resources is written as YAML and run as a Go text
//     template with the delimiters << and >>, slim-sprig's hermetic
//     functions, slugify, toYaml and mustToYaml, inputs and
//     missingkey=error, once per input set (once with no input set when
//     there are none); spec.resourcesTemplate is a multi-document
//     template run the same way; spec.steps each hold either;
//   - an object annotated fluxcd.controlplane.io/reconcile: disabled is
//     left out, and an object made twice (by group, kind, namespace and
//     name) is kept once, the first;
//   - spec.commonMetadata's labels and annotations are set on every
//     object, over its own, and so are the operator's owner labels.
//
// Input sets the operator reads from the cluster (spec.inputsFrom, from
// ResourceSetInputProviders) are not in the repository: such a
// ResourceSet is expanded with its inline inputs when it flattens them,
// with a warning that names what is not loaded, and not at all when it
// permutes them.

// resourceSetGroup is the Flux Operator's API group.
const resourceSetGroup = "fluxcd.controlplane.io"

// kindResourceSet is the kind of a ResourceSet.
const kindResourceSet = "ResourceSet"

// Template limits of a ResourceSet's expansion: a template's output, and
// the longest list until, untilStep and seq make and the longest string
// repeat makes, which the operator does not bound.
const (
	maxTemplateOutput = MaxManifestBytes
	maxTemplateList   = 10_000
)

// resourceSet is a ResourceSet's spec, as expanded.
type resourceSet struct {
	Metadata struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Spec struct {
		Inputs        []map[string]any `json:"inputs"`
		InputsFrom    []any            `json:"inputsFrom"`
		InputStrategy *struct {
			Name string `json:"name"`
		} `json:"inputStrategy"`
		resourceTemplates
		Steps          []resourceStep `json:"steps"`
		CommonMetadata *struct {
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"commonMetadata"`
	} `json:"spec"`
}

// resourceTemplates are the templates of a ResourceSet, or of one of its
// steps.
type resourceTemplates struct {
	Resources         []json.RawMessage `json:"resources"`
	ResourcesTemplate string            `json:"resourcesTemplate"`
}

// resourceStep is one of spec.steps.
type resourceStep struct {
	Name string `json:"name"`
	resourceTemplates
}

// isResourceSet reports whether an object is a Flux Operator
// ResourceSet.
func isResourceSet(obj map[string]any) bool {
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	return kind == kindResourceSet && (meta{APIVersion: apiVersion}).group() == resourceSetGroup
}

// expandResourceSet returns the objects the Flux Operator makes of the
// ResourceSet o, each as rendered from o's file. What stops it is a
// problem of the build; input sets it cannot read are a warning.
func (l *loader) expandResourceSet(o renderedObject) []renderedObject {
	objs, warning, err := expandResourceSet(l.ctx, o.Object)
	md, _ := o.Object["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ref := kindResourceSet + "/" + name
	if warning != "" {
		l.warn(diag.Problem{File: o.File, Object: ref, Message: warning,
			Fix: fmt.Sprintf("give %s its input sets in spec.inputs to have strata load what they make", ref)})
	}
	if err != nil {
		var lp *limitProblem
		if errors.As(err, &lp) {
			p := lp.Problem
			p.File, p.Object = o.File, ref
			l.problem(p)
			return nil
		}
		l.problem(diag.Problem{File: o.File, Object: ref,
			Message: fmt.Sprintf("the Flux Operator cannot expand %s: %v", ref, err),
			Fix:     fmt.Sprintf("correct the templates or inputs of %s in %s (flux-operator build resourceset -f %s says the same)", ref, o.File, o.File)})
		return nil
	}
	out := make([]renderedObject, len(objs))
	for i, m := range objs {
		out[i] = renderedObject{File: o.File, Object: m}
	}
	return out
}

// limitProblem is an expansion that passes a limit of every manifest
// (yamllimits), said as that limit says it.
type limitProblem struct{ diag.Problem }

func (p *limitProblem) Error() string { return p.Message }

// expandResourceSet expands a ResourceSet (see the package's comment
// above): the objects, and a warning when input sets from the cluster
// are not read.
func expandResourceSet(ctx context.Context, obj map[string]any) (objs []map[string]any, warning string, err error) {
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, "", err
	}
	var rs resourceSet
	if err := json.Unmarshal(j, &rs); err != nil {
		return nil, "", fmt.Errorf("invalid spec: %w", err)
	}
	spec := rs.Spec
	if len(spec.Steps) > 0 && (len(spec.Resources) > 0 || spec.ResourcesTemplate != "") {
		return nil, "", errors.New("spec.steps is mutually exclusive with spec.resources and spec.resourcesTemplate")
	}
	for _, s := range spec.Steps {
		if len(s.Resources) == 0 && s.ResourcesTemplate == "" {
			return nil, "", fmt.Errorf("step %q: at least one of resources or resourcesTemplate must be set", s.Name)
		}
	}
	strategy := "Flatten"
	if spec.InputStrategy != nil && spec.InputStrategy.Name != "" {
		strategy = spec.InputStrategy.Name
	}
	if strategy != "Flatten" && strategy != "Permute" {
		return nil, "", fmt.Errorf("unknown input strategy: '%s'", strategy)
	}
	if n := len(spec.InputsFrom); n > 0 {
		if strategy == "Permute" || len(spec.Inputs) == 0 {
			return nil, fmt.Sprintf("its input sets come from %d input provider(s) in the cluster (spec.inputsFrom), which strata does not read: nothing it makes is loaded", n), nil
		}
		warning = fmt.Sprintf("it also takes input sets from %d input provider(s) in the cluster (spec.inputsFrom), which strata does not read: only what its %d inline input set(s) make is loaded", n, len(spec.Inputs))
	}
	provider := map[string]any{
		"apiVersion": resourceSetGroup + "/v1",
		"kind":       kindResourceSet,
		"name":       rs.Metadata.Name,
		"namespace":  rs.Metadata.Namespace,
	}
	inputs := make([]map[string]any, len(spec.Inputs))
	for i, in := range spec.Inputs {
		in["provider"] = provider
		inputs[i] = in
	}
	steps := spec.Steps
	if len(steps) == 0 {
		steps = []resourceStep{{resourceTemplates: spec.resourceTemplates}}
	}
	stepOf := map[string]string{}
	for _, s := range steps {
		made, err := buildTemplates(ctx, s.resourceTemplates, inputs)
		if err != nil {
			if s.Name != "" {
				err = fmt.Errorf("step %q: %w", s.Name, err)
			}
			return nil, warning, err
		}
		for _, m := range made {
			key := operatorKey(m)
			if prev, ok := stepOf[key]; ok {
				if prev == s.Name {
					continue
				}
				return nil, warning, fmt.Errorf("duplicate resource %s in step %q, already defined in step %q", key, s.Name, prev)
			}
			stepOf[key] = s.Name
			objs = append(objs, m)
		}
	}
	labels := map[string]string{
		"resourceset." + resourceSetGroup + "/name":      rs.Metadata.Name,
		"resourceset." + resourceSetGroup + "/namespace": rs.Metadata.Namespace,
	}
	var annotations map[string]string
	if cm := spec.CommonMetadata; cm != nil {
		for k, v := range cm.Labels {
			labels[k] = v
		}
		annotations = cm.Annotations
	}
	for _, m := range objs {
		setMetadata(m, "labels", labels)
		setMetadata(m, "annotations", annotations)
	}
	return objs, warning, nil
}

// buildTemplates runs a ResourceSet's (or a step's) templates over the
// input sets, as the operator's builder does: the resources first, each
// for every input set, then the multi-document template; objects
// disabled by annotation left out, and each identity kept once.
func buildTemplates(ctx context.Context, t resourceTemplates, inputs []map[string]any) ([]map[string]any, error) {
	sets := inputs
	if len(sets) == 0 {
		sets = []map[string]any{nil}
	}
	var out []map[string]any
	seen := map[string]bool{}
	add := func(m map[string]any, dedup bool) {
		key := operatorKey(m)
		if dedup && seen[key] {
			return
		}
		seen[key] = true
		out = append(out, m)
	}
	for i, raw := range t.Resources {
		text, err := yaml.JSONToYAML(raw)
		if err != nil {
			return nil, fmt.Errorf("resources[%d]: %w", i, err)
		}
		for _, in := range sets {
			docs, err := runTemplate(ctx, string(text), in)
			if err != nil {
				return nil, fmt.Errorf("resources[%d]: %w", i, err)
			}
			if len(docs) != 1 {
				return nil, fmt.Errorf("resources[%d]: the template makes %d objects, want one", i, len(docs))
			}
			if len(inputs) > 0 && disabled(docs[0]) {
				continue
			}
			add(docs[0], len(inputs) > 0)
		}
	}
	if t.ResourcesTemplate != "" {
		var made []map[string]any
		for _, in := range sets {
			docs, err := runTemplate(ctx, t.ResourcesTemplate, in)
			if err != nil {
				return nil, fmt.Errorf("resourcesTemplate: %w", err)
			}
			made = append(made, docs...)
		}
		for _, m := range made {
			if !disabled(m) {
				add(m, true)
			}
		}
	}
	return out, nil
}

// disabled reports whether an object is annotated
// fluxcd.controlplane.io/reconcile: disabled, which the operator leaves
// out.
func disabled(m map[string]any) bool {
	md, _ := m["metadata"].(map[string]any)
	a, _ := md["annotations"].(map[string]any)
	return a[resourceSetGroup+"/reconcile"] == "disabled"
}

// operatorKey is an object's identity to the operator: group, kind,
// namespace and name.
func operatorKey(m map[string]any) string {
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	md, _ := m["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	return strings.Join([]string{meta{APIVersion: apiVersion}.group(), kind, ns, name}, "/")
}

// setMetadata sets each of values on metadata.<field> of m, over what it
// holds.
func setMetadata(m map[string]any, field string, values map[string]string) {
	if len(values) == 0 {
		return
	}
	md, ok := m["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		m["metadata"] = md
	}
	cur, ok := md[field].(map[string]any)
	if !ok {
		cur = map[string]any{}
		md[field] = cur
	}
	for k, v := range values {
		cur[k] = v
	}
}

// runTemplate runs one template over one input set (nil for none) and
// reads the objects it writes: every document that holds one, each held
// to the limits of every manifest first. A template runs until it ends
// (text/template cannot be stopped); when ctx ends first, runTemplate
// returns ctx's error without waiting for it.
func runTemplate(ctx context.Context, text string, in map[string]any) ([]map[string]any, error) {
	tp, err := template.New("resourceset").
		Delims("<<", ">>").
		Funcs(templateFuncs()).
		Funcs(template.FuncMap{"inputs": func() any { return in }}).
		Option("missingkey=error").
		Parse(text)
	if err != nil {
		return nil, fmt.Errorf("parse template: %w", err)
	}
	var b limitedBuilder
	done := make(chan error, 1)
	go func() {
		var err error
		defer func() { done <- err }()
		defer recovered.Catch(&err, "execute template")
		err = tp.Execute(&b, nil)
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case err := <-done:
		if err != nil {
			return nil, fmt.Errorf("execute template: %w", err)
		}
	}
	out := []byte(b.String())
	docs, ps := decodeYAML("", out)
	if len(ps) > 0 {
		return nil, fmt.Errorf("read what the template wrote: %s", ps[0].Message)
	}
	if ps := yamllimits.Check("", docs); len(ps) > 0 {
		return nil, &limitProblem{ps[0]}
	}
	var objs []map[string]any
	for _, d := range docs {
		v, err := decodeNode(d)
		if err != nil {
			return nil, fmt.Errorf("read what the template wrote: %w", err)
		}
		if v == nil {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("the template wrote a %T, not an object", v)
		}
		// Through JSON, as the operator reads it into an unstructured
		// object.
		j, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("read what the template wrote: %w", err)
		}
		var obj map[string]any
		if err := json.Unmarshal(j, &obj); err != nil {
			return nil, fmt.Errorf("read what the template wrote: %w", err)
		}
		objs = append(objs, obj)
	}
	return objs, nil
}

// limitedBuilder is a strings.Builder that refuses to grow past
// maxTemplateOutput.
type limitedBuilder struct{ strings.Builder }

func (b *limitedBuilder) Write(p []byte) (int, error) {
	if b.Len()+len(p) > maxTemplateOutput {
		return 0, fmt.Errorf("the template writes more than %d bytes", maxTemplateOutput)
	}
	return b.Builder.Write(p)
}

// templateFuncs are the functions of the operator's templates, with the
// lists and strings they make bounded.
var templateFuncs = sync.OnceValue(func() template.FuncMap {
	// The operator's slugs: at most 63 characters (a label value's
	// limit), cut between words.
	slug.MaxLength = 63
	slug.EnableSmartTruncate = true
	fm := sprig.HermeticTxtFuncMap()
	fm["slugify"] = slug.Make
	fm["toYaml"] = func(v any) string {
		b, err := yaml.Marshal(v)
		if err != nil {
			return ""
		}
		return string(b)
	}
	fm["mustToYaml"] = func(v any) (string, error) {
		b, err := yaml.Marshal(v)
		if err != nil {
			return "", err
		}
		return string(b), nil
	}
	for _, name := range []string{"until", "untilStep", "seq", "repeat"} {
		fm[name] = bounded(name, fm[name])
	}
	return fm
})

// bounded wraps a list or string function of sprig so that it refuses
// to make more than maxTemplateList elements, or a string longer than
// maxTemplateOutput.
func bounded(name string, f any) any {
	tooMany := fmt.Errorf("%s: strata makes at most %d elements", name, maxTemplateList)
	// count is how many elements a range from start to stop by step
	// holds, in floating point so that no extreme value wraps around.
	count := func(start, stop, step int) float64 {
		if step == 0 {
			return 0
		}
		return (float64(stop) - float64(start)) / float64(step)
	}
	switch f := f.(type) {
	case func(int) []int: // until
		return func(n int) ([]int, error) {
			if n > maxTemplateList || n < -maxTemplateList {
				return nil, tooMany
			}
			return f(n), nil
		}
	case func(int, int, int) []int: // untilStep
		return func(start, stop, step int) ([]int, error) {
			if count(start, stop, step) > maxTemplateList {
				return nil, tooMany
			}
			return f(start, stop, step), nil
		}
	case func(...int) string: // seq: end, start end, or start step end
		return func(p ...int) (string, error) {
			var n float64
			switch len(p) {
			case 1:
				n = count(0, p[0], 1)
			case 2:
				n = count(p[0], p[1], 1)
			case 3:
				n = count(p[0], p[2], p[1])
			}
			if n > maxTemplateList || n < -maxTemplateList {
				return "", tooMany
			}
			return f(p...), nil
		}
	case func(int, string) string: // repeat
		return func(n int, s string) (string, error) {
			if float64(n)*float64(len(s)) > maxTemplateOutput {
				return "", fmt.Errorf("repeat: strata makes at most %d bytes", maxTemplateOutput)
			}
			return f(n, s), nil
		}
	}
	return f
}
