package flux

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/strata-iac/strata/internal/suggest"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// Inputs finds the ConfigMaps and Secrets that the repository names but
// does not hold: those made in the cluster by hand, by a bootstrap or by
// External Secrets. Package inputs has the two kinds strata reads: a
// directory of manifests (--inputs) and a cluster (--kubeconfig).
type Inputs interface {
	// Get returns the object of kind (ConfigMap or Secret) as the API
	// server would hand it out, and where it came from for messages
	// ("inputs/creds.yaml", "cluster dev"); nil when there is none.
	Get(ctx context.Context, kind, namespace, name string) (obj map[string]any, origin string, err error)
	// Identity names what the inputs hold, for the render cache; ""
	// when that can change without strata seeing it (a cluster), so that
	// an environment that read any is rendered anew every time.
	Identity() string
}

// DefaultNamespace is the namespace of an object that names none: the
// one Flux's own objects live in.
const DefaultNamespace = "flux-system"

// inputObject is a ConfigMap or Secret read from Options.Inputs.
type inputObject struct {
	configMap *configMap
	secret    *secret
	// failed is the problem of an input that could not be decrypted:
	// it is there, but holds nothing strata can read.
	failed *diag.Problem
}

// namespaceOf returns an object's namespace, DefaultNamespace when it
// names none.
func namespaceOf(o *object) string {
	if o.Metadata.Namespace != "" {
		return o.Metadata.Namespace
	}
	return DefaultNamespace
}

// input reads a ConfigMap or Secret from the load's inputs, once per
// load. It returns nil when there are no inputs or they hold no such
// object; an input that cannot be read or decoded is a problem of what
// needs it, and one that cannot be decrypted a problem of everything that
// needs it.
func (l *loader) input(kind, namespace, name string) *inputObject {
	if l.opts.Inputs == nil {
		return nil
	}
	key := environment.InputKey(kind, namespace, name)
	if in, ok := l.inputs[key]; ok {
		if in != nil && in.failed != nil {
			l.problem(*in.failed)
			return nil
		}
		return in
	}
	if l.inputs == nil {
		l.inputs = map[string]*inputObject{}
	}
	l.inputs[key] = nil
	obj, origin, err := l.opts.Inputs.Get(l.ctx, kind, namespace, name)
	if err != nil {
		l.problem(diag.Problem{
			File:    origin,
			Object:  kind + "/" + name,
			Message: fmt.Sprintf("read input %s/%s/%s: %v", kind, namespace, name, err),
			Fix:     "check --inputs or --kubeconfig and --context, and that they can read it",
		})
		return nil
	}
	if obj == nil {
		return nil
	}
	if decryption.IsEncrypted(obj) {
		m, err := l.machineDecryptor().Object(obj)
		if err != nil {
			p := decryptProblem(origin, kind+"/"+name, kind+"/"+name, "--inputs", err)
			l.inputs[key] = &inputObject{failed: p}
			l.problem(*p)
			return nil
		}
		obj = m
	}
	d, p := decodeObject(origin, obj, &l.shared)
	if p != nil {
		l.problem(*p)
		return nil
	}
	in := &inputObject{configMap: d.ConfigMap, secret: d.Secret}
	switch {
	case in.configMap != nil && kind == kindConfigMap:
	case in.secret != nil && kind == kindSecret:
		// Every value of a Secret given from outside is a secret: it
		// reaches tofu and nothing else.
		in.secret.Private = true
		l.readSecretInput = true
	default:
		return nil
	}
	l.inputs[key] = in
	return in
}

// missing records p, the problem diag.MissingInput makes of a ConfigMap or
// Secret that neither the repository nor the inputs hold; when the inputs
// hold it but it could not be decrypted, that problem instead: it was
// given, and waiting for it would not help. What of the repository makes
// it is said once the whole repository is rendered (explainInputs).
func (l *loader) missing(p diag.Problem, kind, namespace, name string) {
	if in := l.inputs[environment.InputKey(kind, namespace, name)]; in != nil && in.failed != nil {
		p = *in.failed
	}
	l.problem(p)
}

// explainMissing says, in a problem of an input that is not in the
// repository, what of the repository makes it in the cluster: an object
// that makes the Secret, or the Secret itself, SOPS-encrypted for a key
// strata does not hold.
func (l *loader) explainMissing(p *diag.Problem, kind, namespace, name string) {
	const plain = "it is not in the repository;"
	if !strings.Contains(p.Message, plain) {
		return
	}
	if kind == kindSecret {
		if m, ok := l.maker(namespace, name); ok {
			p.Message = strings.Replace(p.Message, plain, fmt.Sprintf("%s (%s) makes it in the cluster;", m.ref, m.file), 1)
			return
		}
		if s := l.secrets.inAny(name, namespace); s != nil && s.noKey {
			l.explainNoKey(p, s.File)
			return
		}
	}
	if cm := l.configMaps.inAny(name, namespace); kind == kindConfigMap && cm != nil && cm.noKey {
		l.explainNoKey(p, cm.File)
		return
	}
	files := l.inRepo(kind, namespace, name)
	if len(files) == 0 {
		if near := l.nearInput(kind, name); near != "" {
			p.Message = strings.Replace(p.Message, plain, fmt.Sprintf("it is not in the repository, which has a %s %s;", kind, near), 1)
			p.Fix = fmt.Sprintf("write %s if that is the %s meant; or %s", near, kind, p.Fix)
		}
		return
	}
	for _, f := range files {
		if slices.ContainsFunc(l.problems, func(q diag.Problem) bool { return q.File == f }) {
			p.Message = strings.Replace(p.Message, plain, fmt.Sprintf("%s holds a %s of that name, and a problem of that file keeps it out;", f, kind), 1)
			p.Fix = fmt.Sprintf("correct %s (its problem is listed), or %s", f, p.Fix)
			return
		}
	}
	holds := "holds"
	if len(files) > 1 {
		holds = "hold"
	}
	p.Message = strings.Replace(p.Message, plain,
		fmt.Sprintf("no build of this environment renders it in namespace %s, though %s %s a %s of that name;", namespace, strings.Join(files, " and "), holds, kind), 1)
	p.Fix = fmt.Sprintf("pass --inputs %s (the directory of %s), or have a Kustomization of this environment apply it in namespace %s, or %s", path.Dir(files[0]), files[0], namespace, p.Fix)
}

// explainNoKey says, in a problem of an input that is not in the
// repository, that file holds it SOPS-encrypted for a key strata does not
// hold.
func (l *loader) explainNoKey(p *diag.Problem, file string) {
	p.Message = strings.Replace(p.Message, "it is not in the repository;",
		fmt.Sprintf("it is SOPS-encrypted in %s, and strata holds no key to it (Flux in the cluster does);", file), 1)
	p.Fix = fmt.Sprintf("give strata the key (see --sops-age-key-file), or %s", p.Fix)
}

// nearInput returns the name of a ConfigMap or Secret (kind) of this
// environment a few letters from name, the one a typo most likely
// meant; "" when there is none.
func (l *loader) nearInput(kind, name string) string {
	var names []string
	switch kind {
	case kindConfigMap:
		for _, byName := range l.configMaps {
			names = append(names, slices.Collect(maps.Keys(byName))...)
		}
	case kindSecret:
		for _, byName := range l.secrets {
			names = append(names, slices.Collect(maps.Keys(byName))...)
		}
	}
	slices.Sort(names)
	if c, d := suggest.Closest(name, names); d > 0 && d <= 2 {
		return c
	}
	return ""
}

// explainInputs is explainMissing on every problem of an input, once the
// whole repository is rendered: a Kustomization may substitute from a
// Secret it applies itself, or one an object rendered later makes.
func (l *loader) explainInputs() {
	for i := range l.problems {
		if in := l.problems[i].Input; in != nil && l.problems[i].Code == diag.CodeInputMissing {
			l.explainMissing(&l.problems[i], in.Kind, in.Namespace, in.Name)
		}
	}
}
