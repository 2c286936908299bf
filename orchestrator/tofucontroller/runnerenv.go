package tofucontroller

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// reservedEnv are the variables a stack's environment may not set: those
// by which strata drives tofu (the CLI configuration, the plugin cache,
// the workspace, the log, the flags), which terraform-exec keeps for
// itself too. TF_VAR_ variables are the stack's to set.
var reservedEnv = []string{
	"TF_CLI_CONFIG_FILE", "TF_PLUGIN_CACHE_DIR", "TF_CLI_ARGS", "TF_INPUT", "TF_IN_AUTOMATION",
	"TF_LOG", "TF_LOG_CORE", "TF_LOG_PATH", "TF_LOG_PROVIDER", "TF_REATTACH_PROVIDERS",
	"TF_APPEND_USER_AGENT", "TF_WORKSPACE", "TF_DISABLE_PLUGIN_TLS", "TF_SKIP_PROVIDER_VERIFY",
}

// reserved reports whether a stack's environment may not set name.
func reserved(name string) bool {
	return slices.Contains(reservedEnv, name) || strings.HasPrefix(name, "TF_CLI_ARGS_")
}

// validEnvName is the kubelet's rule for a variable's name: printable
// ASCII, with no "=".
func validEnvName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r < ' ' || r > '~' || r == '=' {
			return false
		}
	}
	return true
}

// runnerEnv resolves spec.runnerPodTemplate.spec.envFrom and env into
// tofu's environment, as the kubelet resolves a container's: envFrom in
// order (each key under its prefix, later sources winning), then env in
// order over it, each value's $(VAR) references expanded against what is
// defined before it. Values come from the repository's ConfigMaps and
// Secrets, or, read from a cluster, the namespace's: tofu's environment
// when strata controller runs it in process. A runner Job's pod has the
// fields themselves, as the Tofu Controller's runner pod has, and its
// request leaves this out (jobs).
func (b *builder) runnerEnv() []environment.EnvVar {
	tf := b.tf
	spec := tf.Spec.RunnerPodTemplate.Spec
	bad := func(field, msg, fix string) {
		if b.r.FromCluster() {
			// A runner Job's pod sets the variable as written (the API
			// server judges it); an in-process run goes without it.
			return
		}
		b.problem(field+" "+msg, fix+" in "+tf.File)
	}
	env := map[string]environment.EnvVar{}
	set := func(field string, v environment.EnvVar) bool {
		switch {
		case !validEnvName(v.Name):
			bad(field, fmt.Sprintf("names variable %q, which is not a valid variable name", v.Name),
				"name the variable with printable characters and no \"=\"")
			return false
		case reserved(v.Name):
			bad(field, fmt.Sprintf("sets %s, by which strata drives tofu", v.Name),
				"remove the variable (spec.workspace selects the workspace; strata writes the CLI configuration and keeps the plugin cache)")
			return false
		}
		env[v.Name] = v
		return true
	}
	for i, ef := range spec.EnvFrom {
		field := fmt.Sprintf("spec.runnerPodTemplate.spec.envFrom[%d]", i)
		var kind string
		var ref *OptionalRef
		switch {
		case ef.ConfigMapRef != nil && ef.SecretRef == nil:
			kind, ref = KindConfigMap, ef.ConfigMapRef
		case ef.SecretRef != nil && ef.ConfigMapRef == nil:
			kind, ref = KindSecret, ef.SecretRef
		default:
			bad(field, "must name exactly one configMapRef or secretRef", "keep one of configMapRef and secretRef")
			continue
		}
		data, _, ok := b.envSource(field, kind, ref.Name, ref.Optional)
		if !ok {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(data)) {
			set(field, environment.EnvVar{Name: ef.Prefix + k, Source: fmt.Sprintf("%s %s key %s", kind, ref.Name, k), Value: data[k]})
		}
	}
	for i, e := range spec.Env {
		field := fmt.Sprintf("spec.runnerPodTemplate.spec.env[%d]", i)
		if e.ValueFrom == nil {
			lookup := func(name string) (string, bool) {
				v, ok := env[name]
				return v.Value, ok
			}
			set(field, environment.EnvVar{Name: e.Name, Source: "value", Value: expandEnv(e.Value, lookup)})
			continue
		}
		vf := e.ValueFrom
		var kind string
		var ref *KeyRef
		switch {
		case vf.SecretKeyRef != nil && vf.ConfigMapKeyRef == nil && len(vf.FieldRef) == 0 && len(vf.ResourceFieldRef) == 0:
			kind, ref = KindSecret, vf.SecretKeyRef
		case vf.ConfigMapKeyRef != nil && vf.SecretKeyRef == nil && len(vf.FieldRef) == 0 && len(vf.ResourceFieldRef) == 0:
			kind, ref = KindConfigMap, vf.ConfigMapKeyRef
		default:
			bad(field+".valueFrom", fmt.Sprintf("(%s) must name exactly one secretKeyRef or configMapKeyRef: strata runs no pod, so fieldRef and resourceFieldRef have nothing to read", e.Name),
				fmt.Sprintf("use secretKeyRef or configMapKeyRef for %s", e.Name))
			continue
		}
		if ref.Name == "" || ref.Key == "" {
			bad(field+".valueFrom", fmt.Sprintf("(%s) needs both name and key", e.Name), fmt.Sprintf("set the name and key of %s's %s", e.Name, kind))
			continue
		}
		data, file, ok := b.envSource(field+".valueFrom", kind, ref.Name, ref.Optional, ref.Key)
		if !ok {
			continue
		}
		v, found := data[ref.Key]
		if !found {
			if !ref.Optional {
				b.missingKey(fmt.Sprintf("%s.valueFrom (%s)", field, e.Name), ref.Key, kind, ref.Name, file, "mark the reference optional: true")
			}
			continue
		}
		set(field, environment.EnvVar{Name: e.Name, Source: fmt.Sprintf("%s %s key %s", kind, ref.Name, ref.Key), Value: v})
	}
	if len(env) == 0 {
		return nil
	}
	out := make([]environment.EnvVar, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, env[k])
	}
	return out
}

// envSource is the data of the ConfigMap or Secret of the repository a
// stack's environment reads, and its file. ok is false when there is
// none: a problem says so, unless the reference is optional.
func (b *builder) envSource(field, kind, name string, optional bool, keys ...string) (map[string]string, string, bool) {
	tf := b.tf
	switch kind {
	case KindConfigMap:
		if cm := b.r.ConfigMap(name); cm != nil {
			return cm.Data, cm.File, true
		}
	default:
		if sec := b.r.Secret(name); sec != nil {
			return sec.Data, sec.File, !sec.Failed
		}
	}
	if !optional {
		ns := tf.Namespace
		p := diag.MissingInputOr(tf.File, tf.ref(), field, kind, ns, name, "mark the reference optional: true")
		p.Input.Keys = keys
		b.r.Missing(p)
	}
	return nil, "", false
}

// expandEnv expands the $(VAR) references of a variable's value as the
// kubelet does: a defined variable's value replaces its reference, an
// undefined one is left as written, and $$ is a literal $.
func expandEnv(s string, lookup func(string) (string, bool)) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			sb.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			sb.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				// No closing parenthesis: the rest is literal.
				sb.WriteString(s[i:])
				return sb.String()
			}
			name := s[i+2 : i+2+end]
			if v, ok := lookup(name); ok && name != "" {
				sb.WriteString(v)
			} else {
				sb.WriteString(s[i : i+3+end])
			}
			i += 2 + end
		default:
			sb.WriteByte('$')
		}
	}
	return sb.String()
}
