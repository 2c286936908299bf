package environment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// The API groups of the objects strata reads. Any version of a group is
// accepted; objects of other kinds are ignored.
const (
	groupCore      = ""
	groupKustomize = "kustomize.toolkit.fluxcd.io"
	groupSource    = "source.toolkit.fluxcd.io"
	groupInfra     = "infra.contrib.fluxcd.io"
)

// Object kinds strata reads.
const (
	kindConfigMap     = "ConfigMap"
	kindKustomization = "Kustomization"
	kindTerraform     = "Terraform"
	kindSecret        = "Secret"
)

// annotationSubstitute is Flux's per-object switch for postBuild
// substitution ("disabled" turns it off).
const annotationSubstitute = "kustomize.toolkit.fluxcd.io/substitute"

// document is one YAML document of a file.
type document struct {
	// Text is the document's text, without the "---" separators.
	Text string
	// Line is the 1-based line of the file on which Text starts.
	Line int
}

// splitDocuments splits a multi-document YAML file at its "---" (and
// "...") marker lines. Documents holding only blank lines and comments are
// dropped.
func splitDocuments(text string) []document {
	var docs []document
	var cur strings.Builder
	start := 1
	flush := func() {
		if hasContent(cur.String()) {
			docs = append(docs, document{Text: cur.String(), Line: start})
		}
		cur.Reset()
	}
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		if isDocumentMarker(line) {
			flush()
			start = i + 2
			continue
		}
		cur.WriteString(line)
	}
	flush()
	return docs
}

// isDocumentMarker reports whether line starts or ends a YAML document.
func isDocumentMarker(line string) bool {
	line = strings.TrimRight(line, "\r\n")
	for _, m := range []string{"---", "..."} {
		if line == m || strings.HasPrefix(line, m+" ") || strings.HasPrefix(line, m+"\t") {
			return true
		}
	}
	return false
}

// hasContent reports whether a document holds anything but blank lines and
// comments.
func hasContent(text string) bool {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			return true
		}
	}
	return false
}

// meta is the part of every Kubernetes object strata looks at first.
type meta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
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
	// File is the file the object is in, relative to the root.
	File string
	// Line is the line of the file on which the object's document starts.
	Line int
}

// Name returns metadata.name.
func (o *object) Name() string { return o.Metadata.Name }

// configMap is a v1 ConfigMap.
type configMap struct {
	object
	Data map[string]string
}

// namedRef is a reference by name, as in dependsOn.
type namedRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// sourceRef is spec.sourceRef of a Kustomization or Terraform object.
type sourceRef struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// String renders the reference as "Kind/name".
func (r sourceRef) String() string { return r.Kind + "/" + r.Name }

// valuesRef is one entry of postBuild.substituteFrom or spec.varsFrom.
type valuesRef struct {
	Kind     string   `json:"kind"`
	Name     string   `json:"name"`
	Optional bool     `json:"optional,omitempty"`
	VarsKeys []string `json:"varsKeys,omitempty"`
}

// postBuild is spec.postBuild of a Flux Kustomization.
type postBuild struct {
	Substitute     map[string]string `json:"substitute"`
	SubstituteFrom []valuesRef       `json:"substituteFrom"`
}

// kustomization is a Flux Kustomization (kustomize.toolkit.fluxcd.io).
type kustomization struct {
	object
	// Group is the environment sub-directory the Kustomization is in, ""
	// at the environment's root.
	Group string
	Spec  struct {
		Path      string     `json:"path"`
		SourceRef *sourceRef `json:"sourceRef"`
		DependsOn []namedRef `json:"dependsOn"`
		PostBuild *postBuild `json:"postBuild"`
	} `json:"spec"`
}

// terraform is a Tofu Controller Terraform object (infra.contrib.fluxcd.io).
type terraform struct {
	object
	Spec struct {
		Path      string     `json:"path"`
		SourceRef *sourceRef `json:"sourceRef"`
		Vars      []struct {
			Name      string          `json:"name"`
			Value     json.RawMessage `json:"value"`
			ValueFrom json.RawMessage `json:"valueFrom"`
		} `json:"vars"`
		VarsFrom      []valuesRef `json:"varsFrom"`
		DependsOn     []namedRef  `json:"dependsOn"`
		BackendConfig *struct {
			CustomConfiguration string `json:"customConfiguration"`
		} `json:"backendConfig"`
		WriteOutputsToSecret *struct {
			Name    string   `json:"name"`
			Outputs []string `json:"outputs"`
		} `json:"writeOutputsToSecret"`
		ReadInputsFromSecrets []struct {
			Name string `json:"name"`
			As   string `json:"as"`
		} `json:"readInputsFromSecrets"`
		ApprovePlan string `json:"approvePlan"`
		Tfstate     struct {
			ForceUnlock string `json:"forceUnlock"`
		} `json:"tfstate"`
	} `json:"spec"`
}

// ociRepository is a Flux OCIRepository (source.toolkit.fluxcd.io).
type ociRepository struct {
	object
	Spec struct {
		URL      string `json:"url"`
		Insecure bool   `json:"insecure"`
		Ref      struct {
			Semver string `json:"semver"`
			Tag    string `json:"tag"`
			Digest string `json:"digest"`
		} `json:"ref"`
	} `json:"spec"`
}

// kustomizeFileNames are the names kustomize looks for in a directory.
var kustomizeFileNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// decodeKustomizeFile reads the resources of a kustomization.yaml
// (kustomize.config.k8s.io, whose apiVersion and kind are optional).
func decodeKustomizeFile(file, text string) ([]string, *diag.Problem) {
	doc := document{Text: text, Line: 1}
	if docs := splitDocuments(text); len(docs) > 0 {
		doc = docs[0]
	}
	j, err := yaml.YAMLToJSON([]byte(doc.Text))
	if err != nil {
		p := malformed(file, doc, err)
		return nil, &p
	}
	var k struct {
		Resources []string `json:"resources"`
	}
	if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
		return nil, nil
	}
	if err := json.Unmarshal(j, &k); err != nil {
		return nil, invalid(file, "", doc, err)
	}
	return k.Resources, nil
}

// decoded is the outcome of decoding one document: at most one of the
// typed fields is set; none is for objects of kinds strata ignores.
type decoded struct {
	ConfigMap     *configMap
	Kustomization *kustomization
	Terraform     *terraform
	OCIRepository *ociRepository
	GitRepository *object
}

// yamlLine matches the line number in the YAML parser's messages.
var yamlLine = regexp.MustCompile(`^(?:error converting YAML to JSON: )?yaml: line (\d+): (.*)$`)

// malformed turns a YAML parse error into a problem, with the line number
// counted from the start of the file.
func malformed(file string, doc document, err error) diag.Problem {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line := doc.Line + n - 1
		return diag.Problem{
			File:    file,
			Message: fmt.Sprintf("malformed YAML at line %d: %s", line, m[2]),
			Fix:     fmt.Sprintf("fix the YAML syntax at line %d of %s", line, file),
		}
	}
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	return diag.Problem{
		File:    file,
		Message: fmt.Sprintf("malformed YAML in the document at line %d: %s", doc.Line, msg),
		Fix:     fmt.Sprintf("fix the YAML syntax of the document at line %d of %s", doc.Line, file),
	}
}

// peekMeta decodes just the kind, name and annotations of a document, and
// returns the document as JSON, which holds no comments. It returns false
// when the document is not valid YAML or not a mapping.
func peekMeta(doc document) (meta, []byte, bool) {
	var m meta
	j, err := yaml.YAMLToJSON([]byte(doc.Text))
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(j), []byte("{")) {
		return m, nil, false
	}
	if json.Unmarshal(j, &m) != nil {
		return m, nil, false
	}
	return m, j, true
}

// decodeDocument decodes one document of file. Objects of kinds strata
// does not read come back as a zero decoded and no problem.
func decodeDocument(file string, doc document) (decoded, *diag.Problem) {
	j, err := yaml.YAMLToJSON([]byte(doc.Text))
	if err != nil {
		p := malformed(file, doc, err)
		return decoded{}, &p
	}
	j = bytes.TrimSpace(j)
	if !bytes.HasPrefix(j, []byte("{")) {
		if bytes.Equal(j, []byte("null")) {
			return decoded{}, nil
		}
		return decoded{}, &diag.Problem{
			File:    file,
			Message: fmt.Sprintf("the document at line %d is not a YAML mapping", doc.Line),
			Fix:     fmt.Sprintf("make the document at line %d of %s a Kubernetes object (apiVersion, kind, metadata, …) or remove it", doc.Line, file),
		}
	}
	var m meta
	if err := json.Unmarshal(j, &m); err != nil {
		return decoded{}, invalid(file, "", doc, err)
	}
	o := object{meta: m, File: file, Line: doc.Line}
	var d decoded
	var target any
	switch {
	case m.group() == groupCore && m.Kind == kindConfigMap:
		d.ConfigMap = &configMap{object: o}
		target = d.ConfigMap
	case m.group() == groupKustomize && m.Kind == kindKustomization:
		d.Kustomization = &kustomization{object: o}
		target = d.Kustomization
	case m.group() == groupInfra && m.Kind == kindTerraform:
		d.Terraform = &terraform{object: o}
		target = d.Terraform
	case m.group() == groupSource && m.Kind == SourceOCIRepository:
		d.OCIRepository = &ociRepository{object: o}
		target = d.OCIRepository
	case m.group() == groupSource && m.Kind == SourceGitRepository:
		d.GitRepository = &o
		return d, nil
	default:
		return decoded{}, nil
	}
	if d.ConfigMap != nil {
		if p := decodeConfigMap(j, d.ConfigMap, doc); p != nil {
			return decoded{}, p
		}
	} else if err := json.Unmarshal(j, target); err != nil {
		return decoded{}, invalid(file, m.ref(), doc, err)
	}
	if m.Metadata.Name == "" {
		return decoded{}, &diag.Problem{
			File:    file,
			Message: fmt.Sprintf("the %s at line %d has no metadata.name", m.Kind, doc.Line),
			Fix:     fmt.Sprintf("give the %s at line %d of %s a metadata.name", m.Kind, doc.Line, file),
		}
	}
	return d, nil
}

// decodeConfigMap decodes a ConfigMap's data, which must map strings to
// strings (Kubernetes refuses numbers and booleans there).
func decodeConfigMap(j []byte, cm *configMap, doc document) *diag.Problem {
	var raw struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(j, &raw); err != nil {
		return invalid(cm.File, cm.ref(), doc, err)
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
func invalid(file, ref string, doc document, err error) *diag.Problem {
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
		Fix:     fmt.Sprintf("correct %s at line %d of %s to the documented shape", what, doc.Line, file),
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
