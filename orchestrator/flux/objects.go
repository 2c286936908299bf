package flux

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofucontroller"
)

// The API groups of the objects strata reads. Any version of a group is
// accepted; objects of other kinds are ignored.
const (
	groupCore      = ""
	groupKustomize = "kustomize.toolkit.fluxcd.io"
	groupSource    = "source.toolkit.fluxcd.io"
	groupInfra     = tofucontroller.Group
	// groupKustomizeConfig is kustomize's own configuration files'
	// (Kustomization, Component): read by kustomize, served by no
	// cluster.
	groupKustomizeConfig = "kustomize.config.k8s.io"
)

// Object kinds strata reads.
const (
	kindConfigMap     = "ConfigMap"
	kindKustomization = "Kustomization"
	kindTerraform     = tofucontroller.Kind
	kindSecret        = "Secret"
)

// annotationSubstitute is Flux's per-object switch for postBuild
// substitution ("disabled" turns it off).
const annotationSubstitute = "kustomize.toolkit.fluxcd.io/substitute"

// meta is the part of every Kubernetes object strata looks at first.
type meta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
}

// group returns the API group of the object's apiVersion.
func (m meta) group() string {
	g, _, ok := strings.Cut(m.APIVersion, "/")
	if !ok {
		return groupCore
	}
	return g
}

// ref renders the object as "Kind/name".
func (m meta) ref() string { return m.Kind + "/" + m.Metadata.Name }

// object is one decoded object of a known kind, with where it came from.
type object struct {
	meta
	// File is the file the object came from, relative to the root.
	File string
	// by is the Flux Kustomization whose build rendered it, "" for the
	// entry directory's.
	by string
}

// Name returns metadata.name.
func (o *object) Name() string { return o.Metadata.Name }

// configMap is a v1 ConfigMap.
type configMap struct {
	object
	Data map[string]string
	// noKey is set on a ConfigMap SOPS-encrypted for a key strata does
	// not hold (Flux in the cluster does): it holds no data here, and is
	// read from the inputs instead, as such a Secret is.
	noKey bool
}

// secret is a v1 Secret: data (base64) and stringData, merged as the API
// server merges them.
type secret struct {
	object
	Data map[string]string
	// Type is the Secret's type.
	Type string
	// Private is set on a Secret that was SOPS-encrypted in the
	// repository and decrypted: its values must not be shown.
	Private bool
	// Failed is set on a Secret that could not be decrypted; a problem
	// says why, and its data is empty.
	Failed bool
	// noKey is set on a Failed Secret that strata lacks the key to, which
	// the cluster holds decrypted: it is read from the inputs.
	noKey bool
}

// decodeSecret decodes a Secret's data and stringData.
func decodeSecret(j []byte, s *secret) *diag.Problem {
	var raw struct {
		Type       string            `json:"type"`
		Data       map[string][]byte `json:"data"`
		StringData map[string]string `json:"stringData"`
	}
	if err := json.Unmarshal(j, &raw); err != nil {
		return invalid(s.File, s.ref(), err)
	}
	s.Type = raw.Type
	s.Data = make(map[string]string, len(raw.Data)+len(raw.StringData))
	for k, v := range raw.Data {
		s.Data[k] = string(v)
	}
	for k, v := range raw.StringData {
		s.Data[k] = v
	}
	return nil
}

// namedRef is a reference by name, as in dependsOn.
type namedRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// ReadyExpr is a dependsOn entry's readyExpr (CEL), which replaces
	// Flux's own readiness check of the dependency.
	ReadyExpr string `json:"readyExpr,omitempty"`
}

// healthCheckExpr is one of a Kustomization's spec.healthCheckExprs.
type healthCheckExpr struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Current    string `json:"current"`
	InProgress string `json:"inProgress"`
	Failed     string `json:"failed"`
}

// sourceRef is spec.sourceRef of a Kustomization or Terraform object.
type sourceRef struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// String renders the reference as "Kind/name".
func (r sourceRef) String() string { return r.Kind + "/" + r.Name }

// valuesRef is one entry of postBuild.substituteFrom.
type valuesRef struct {
	Kind     string `json:"kind"`
	Name     string `json:"name"`
	Optional bool   `json:"optional,omitempty"`
}

// postBuild is spec.postBuild of a Flux Kustomization.
type postBuild struct {
	Substitute     map[string]string `json:"substitute"`
	SubstituteFrom []valuesRef       `json:"substituteFrom"`
	// SubstituteStrategy is WithVariables (the default: substitution runs
	// only when there are variables) or Always (it runs without any, so
	// that ${x:=default} expands).
	SubstituteStrategy string `json:"substituteStrategy"`
}

// substituteAlways is postBuild.substituteStrategy's value that
// substitutes without variables.
const substituteAlways = "Always"

// rendered is an object as rendered: its JSON, a tenth of the memory of
// its map, and the map (raw), decoded from the JSON when it is first read
// (rawMap) and let go of once nothing reads it again.
type rendered struct {
	raw     map[string]any
	rawJSON []byte
}

// rawMap is the object as rendered, as a map: raw, decoded from rawJSON
// when it is not set.
func (r *rendered) rawMap() map[string]any {
	if r.raw == nil && r.rawJSON != nil {
		_ = json.Unmarshal(r.rawJSON, &r.raw)
	}
	return r.raw
}

// fluxMap is the Kustomization as a map, as Flux's generator reads it
// (rawMap): an empty map when none is kept, and for the entry
// directory's build (a nil k).
func (k *kustomization) fluxMap() map[string]any {
	if k != nil {
		if m := k.rawMap(); m != nil {
			return m
		}
	}
	return map[string]any{}
}

// generating is what a build of the Kustomization reads of its spec
// (see generatingOf).
func (k *kustomization) generating() generating {
	if k == nil || k.gen == nil {
		return generating{plainOK: true}
	}
	return *k.gen
}

// unit is the key the loader knows the Kustomization by, in its maps
// and in what it says: its name, or namespace/name when a Kustomization
// of the same name in another namespace came first (addKustomization).
func (k *kustomization) unit() string {
	if k.unitName != "" {
		return k.unitName
	}
	return k.Name()
}

// kustomization is a Flux Kustomization (kustomize.toolkit.fluxcd.io).
type kustomization struct {
	object
	// rendered is read by Flux's generator (rawMap);
	// buildKustomization lets go of its map.
	rendered
	// gen is what its builds read of its spec, read as it was decoded
	// (generatingOf; nil for none of it).
	gen *generating
	// Group is the environment sub-directory the Kustomization is in, ""
	// at the environment's root.
	Group string
	// Parent is the unit of the Kustomization whose build rendered this
	// one, "" for the entry directory's.
	Parent string
	// unitName is the key the loader knows it by (see unit).
	unitName string
	// bootstrap is set on the Kustomization strata makes for an entry
	// directory that holds Terraform objects and that no Kustomization of
	// the repository applies: what `flux bootstrap` makes in the cluster.
	bootstrap bool
	// unbuilt is the directory of a Kustomization whose build failed:
	// what it would have brought in is not known (isolate.go).
	unbuilt string
	// appliesEntry is set on a Kustomization whose spec.path is the entry
	// directory: the objects there are its own.
	appliesEntry bool
	// fromCluster are the postBuild.substituteFrom ConfigMaps and Secrets
	// that are not the repository's (given as inputs, or missing): a
	// variable none defines is asked of them.
	fromCluster []diag.Input
	// held is why Flux applies nothing of what the Kustomization renders
	// (kustomizationFrozen), once heldKnown.
	held      *freeze
	heldKnown bool
	Spec      struct {
		Path    string `json:"path"`
		Suspend bool   `json:"suspend"`
		// CommonMetadata is set on every object the build renders.
		CommonMetadata *struct {
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"commonMetadata"`
		SourceRef *sourceRef `json:"sourceRef"`
		DependsOn []namedRef `json:"dependsOn"`
		PostBuild *postBuild `json:"postBuild"`
		// HealthCheckExprs are the CEL expressions that say, per kind,
		// whether an object the Kustomization applies is healthy.
		HealthCheckExprs []healthCheckExpr `json:"healthCheckExprs"`
		// Decryption is spec.decryption.
		Decryption *struct {
			Provider           string    `json:"provider"`
			SecretRef          *namedRef `json:"secretRef"`
			ServiceAccountName string    `json:"serviceAccountName"`
		} `json:"decryption"`
	} `json:"spec"`
}

// terraform is a Tofu Controller Terraform object (infra.contrib.fluxcd.io),
// its spec as package tofucontroller reads it.
type terraform struct {
	object
	// rendered (its JSON's keys sorted) is read by the field checks
	// (rawMap); buildStack lets go of it.
	rendered
	// sum is the SHA-256 of the rendered JSON, which tells one object
	// that two Kustomizations apply as it is from two that differ; and
	// variables is set when it holds "${", or held one that substitution
	// replaced (usesVariables). Both outlive rendered.
	sum       [sha256.Size]byte
	variables bool
	// Spec is the spec as decoded (never nil) until buildStack, which
	// builds the stack from it, lets go of it (release): at 10,000
	// stacks the decoded specs were a sixth of the load's heap. What the
	// checks after it read of the spec, refs holds from the start.
	Spec *tofucontroller.Spec `json:"spec"`
	refs terraformRefs
}

// terraformRefs are the fields of a Terraform object's spec that name
// other objects: what is read of it once its stack is built.
type terraformRefs struct {
	sourceRef            *tofucontroller.SourceRef
	dependsOn            []tofucontroller.NamedRef
	writeOutputsToSecret *tofucontroller.WriteOutputsToSecret
}

// decoded completes a Terraform object json.Unmarshal filled in: an
// empty spec for none, and the references read from it.
func (tf *terraform) decoded() {
	if tf.Spec == nil {
		tf.Spec = &tofucontroller.Spec{}
	}
	tf.refs = terraformRefs{
		sourceRef:            tf.Spec.SourceRef,
		dependsOn:            tf.Spec.DependsOn,
		writeOutputsToSecret: tf.Spec.WriteOutputsToSecret,
	}
}

// release lets go of the decoded spec, once the stack is built from it.
func (tf *terraform) release() { tf.Spec = nil }

// source is spec.sourceRef, as Flux's sources are looked up by; nil when
// the object names none.
func (tf *terraform) source() *sourceRef {
	if tf.refs.sourceRef == nil {
		return nil
	}
	r := sourceRef(*tf.refs.sourceRef)
	return &r
}

// ociRepository is a Flux OCIRepository (source.toolkit.fluxcd.io).
type ociRepository struct {
	object
	Spec struct {
		URL      string `json:"url"`
		Insecure bool   `json:"insecure"`
		Timeout  string `json:"timeout"`
		Ref      struct {
			Semver string `json:"semver"`
			Tag    string `json:"tag"`
			Digest string `json:"digest"`
		} `json:"ref"`
	} `json:"spec"`
}

// reads reports whether strata reads objects of an apiVersion and kind
// (decodeObject decodes them into one of decoded's types) rather than
// skipping them.
func reads(apiVersion, kind string) bool {
	switch (meta{APIVersion: apiVersion}).group() {
	case groupCore:
		return kind == kindConfigMap || kind == kindSecret
	case groupKustomize:
		return kind == kindKustomization
	case groupInfra:
		return kind == kindTerraform
	case groupSource:
		return kind == environment.SourceOCIRepository || kind == environment.SourceGitRepository || kind == environment.SourceBucket
	}
	return false
}

// decoded is the outcome of decoding one document: at most one of the
// typed fields is set; none is for objects of kinds strata ignores.
type decoded struct {
	ConfigMap     *configMap
	Kustomization *kustomization
	Terraform     *terraform
	OCIRepository *ociRepository
	GitRepository *gitRepository
	Bucket        *bucket
	Secret        *secret
	// Skipped is the kind of an object strata does not read.
	Skipped string
}

// object is the object d decoded, nil for none (Skipped).
func (d *decoded) object() *object {
	switch {
	case d.ConfigMap != nil:
		return &d.ConfigMap.object
	case d.Secret != nil:
		return &d.Secret.object
	case d.Kustomization != nil:
		return &d.Kustomization.object
	case d.Terraform != nil:
		return &d.Terraform.object
	case d.OCIRepository != nil:
		return &d.OCIRepository.object
	case d.GitRepository != nil:
		return &d.GitRepository.object
	case d.Bucket != nil:
		return &d.Bucket.object
	}
	return nil
}

// decodeObject decodes one rendered object that came from file. Objects of
// kinds strata does not read come back with only Skipped set, and no
// problem; a kind or apiVersion that looks like a misspelt Flux or Tofu
// Controller one is a problem. What it decodes shares its labels,
// annotations and the like with the objects decoded before it
// (stringMaps.share; a nil shared shares nothing).
func decodeObject(file string, obj map[string]any, shared *stringMaps) (decoded, *diag.Problem) {
	d, p := decodeAlone(file, obj)
	if p == nil {
		shared.share(&d)
	}
	return d, p
}

// decodeAlone is decodeObject, sharing nothing: it reads nothing but its
// arguments, so any goroutine may call it (decodeBehind).
func decodeAlone(file string, obj map[string]any) (decoded, *diag.Problem) {
	j, err := json.Marshal(obj)
	if err != nil {
		return decoded{}, &diag.Problem{File: file, Message: "invalid object: " + err.Error()}
	}
	m, ok := metaFromMap(obj)
	if !ok {
		if err := json.Unmarshal(j, &m); err != nil {
			// Of a kind strata does not read (a Namespace whose label
			// is a bool), only the kind counts, as skipped; what the
			// cluster makes of the rest is not strata's to say.
			apiVersion, _ := obj["apiVersion"].(string)
			kind, _ := obj["kind"].(string)
			if k := (meta{APIVersion: apiVersion, Kind: kind}); kind != "" && !reads(apiVersion, kind) && checkKind(file, k) == nil {
				return decoded{Skipped: kind}, nil
			}
			return decoded{}, invalid(file, "", err)
		}
	}
	if p := checkKind(file, m); p != nil {
		return decoded{}, p
	}
	o := object{meta: m, File: file}
	var d decoded
	var target any
	switch {
	case m.group() == groupCore && m.Kind == kindConfigMap:
		d.ConfigMap = &configMap{object: o}
		target = d.ConfigMap
	case m.group() == groupCore && m.Kind == kindSecret:
		d.Secret = &secret{object: o}
		target = d.Secret
	case m.group() == groupKustomize && m.Kind == kindKustomization:
		d.Kustomization = &kustomization{object: o, rendered: rendered{rawJSON: j}, gen: generatingOf(obj)}
		target = d.Kustomization
	case m.group() == groupInfra && m.Kind == kindTerraform:
		d.Terraform = &terraform{object: o, rendered: rendered{rawJSON: j}, sum: sha256.Sum256(j), variables: bytes.Contains(j, []byte("${"))}
		target = d.Terraform
	case m.group() == groupSource && m.Kind == environment.SourceOCIRepository:
		d.OCIRepository = &ociRepository{object: o}
		target = d.OCIRepository
	case m.group() == groupSource && m.Kind == environment.SourceGitRepository:
		d.GitRepository = &gitRepository{object: o}
		target = d.GitRepository
	case m.group() == groupSource && m.Kind == environment.SourceBucket:
		d.Bucket = &bucket{object: o}
		target = d.Bucket
	case m.group() == groupKustomizeConfig:
		return decoded{}, unservable(file, m)
	default:
		d.Skipped = m.Kind
		return d, nil
	}
	switch {
	case d.ConfigMap != nil:
		if p := decodeConfigMap(j, d.ConfigMap); p != nil {
			return decoded{}, p
		}
	case d.Secret != nil:
		if p := decodeSecret(j, d.Secret); p != nil {
			return decoded{}, p
		}
	default:
		if err := json.Unmarshal(j, target); err != nil {
			return decoded{}, invalid(file, m.ref(), err)
		}
		if d.Terraform != nil {
			d.Terraform.decoded()
		}
	}
	if m.Metadata.Name == "" {
		return decoded{}, &diag.Problem{
			File:    file,
			Message: fmt.Sprintf("a %s has no metadata.name", m.Kind),
			Fix:     fmt.Sprintf("give the %s in %s a metadata.name", m.Kind, file),
		}
	}
	return d, nil
}

// metaFromMap reads an object's meta from its map, as json.Unmarshal of
// its JSON would, without encoding it: ok is false, for that decode,
// when a field is of another type than meta's, or a key names one of
// meta's fields in another case (which encoding/json matches too).
func metaFromMap(obj map[string]any) (m meta, ok bool) {
	str := func(v any, s *string) bool {
		switch v := v.(type) {
		case nil:
			return true
		case string:
			*s = v
			return true
		}
		return false
	}
	strs := func(v any, to *map[string]string) bool {
		switch v := v.(type) {
		case nil:
			return true
		case map[string]any:
			out := make(map[string]string, len(v))
			for k, e := range v {
				s, isStr := e.(string)
				if !isStr {
					return false
				}
				out[k] = s
			}
			*to = out
			return true
		}
		return false
	}
	if !exactKeys(obj, "apiVersion", "kind", "metadata") || !str(obj["apiVersion"], &m.APIVersion) || !str(obj["kind"], &m.Kind) {
		return meta{}, false
	}
	switch md := obj["metadata"].(type) {
	case nil:
	case map[string]any:
		if !exactKeys(md, "name", "namespace", "labels", "annotations") ||
			!str(md["name"], &m.Metadata.Name) || !str(md["namespace"], &m.Metadata.Namespace) ||
			!strs(md["labels"], &m.Metadata.Labels) || !strs(md["annotations"], &m.Metadata.Annotations) {
			return meta{}, false
		}
	default:
		return meta{}, false
	}
	return m, true
}

// exactKeys reports whether every key of o that names one of fields, in
// any case, names it exactly.
func exactKeys(o map[string]any, fields ...string) bool {
	for k := range o {
		for _, f := range fields {
			if k != f && strings.EqualFold(k, f) {
				return false
			}
		}
	}
	return true
}

// decodeConfigMap decodes a ConfigMap's data, which must map strings to
// strings (Kubernetes refuses numbers and booleans there).
func decodeConfigMap(j []byte, cm *configMap) *diag.Problem {
	var raw struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(j, &raw); err != nil {
		return invalid(cm.File, cm.ref(), err)
	}
	cm.Data = make(map[string]string, len(raw.Data))
	for k, v := range raw.Data {
		s, ok := v.(string)
		if !ok {
			return &diag.Problem{
				File:    cm.File,
				Object:  cm.ref(),
				Message: fmt.Sprintf("data.%s is a %s; ConfigMap data values must be strings", k, jsonKind(v)),
				Fix:     fmt.Sprintf("quote the value of %s in %s", k, cm.File),
			}
		}
		cm.Data[k] = s
	}
	return nil
}

// invalid turns a decoding error (a field of the wrong type) into a
// problem.
func invalid(file, ref string, err error) *diag.Problem {
	msg := err.Error()
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := strings.TrimPrefix(te.Field, ".")
		msg = fmt.Sprintf("%s is a %s, want a %s", field, te.Value, typeKind(te.Type))
	}
	what := "the object"
	if ref != "" {
		what = ref
	}
	return &diag.Problem{
		File:    file,
		Object:  ref,
		Message: "invalid object: " + msg,
		Fix:     fmt.Sprintf("correct %s in %s to the documented shape", what, file),
	}
}

// typeKind names a Go type the way a YAML author thinks of it.
func typeKind(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "list"
	case reflect.Map, reflect.Struct:
		return "mapping"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Pointer:
		return typeKind(t.Elem())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	}
	return t.String()
}

// jsonKind names the kind of a decoded JSON value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case []any:
		return "list"
	case map[string]any:
		return "mapping"
	}
	return "string"
}

// unservable is the problem of a kustomize configuration file among the
// objects a build renders: no cluster serves its kind, so Flux's
// server-side apply of the whole Kustomization fails, and none of its
// objects are applied. That happens when the file is not named
// kustomization.yaml and Flux's generator takes it for a manifest.
func unservable(file string, m meta) *diag.Problem {
	what := fmt.Sprintf("a %s of %s", m.Kind, m.APIVersion)
	if m.Metadata.Name != "" {
		what = fmt.Sprintf("%s %s (%s)", m.Kind, m.Metadata.Name, m.APIVersion)
	}
	return &diag.Problem{
		File: file,
		Message: fmt.Sprintf("%s is among the objects Flux applies, and no cluster serves that kind: Flux's apply of the whole Kustomization fails, so none of its objects are applied",
			what),
		Fix: fmt.Sprintf("name the file kustomization.yaml (in a directory of its own), or move %s out of the directory Flux builds", file),
	}
}
