package tofucontroller

import (
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// testRender is a Render over ConfigMaps and Secrets by name, as package
// flux's render hands them over, keeping what Build records.
type testRender struct {
	configMaps, secrets map[string]*Object
	cluster             bool
	// crossNamespace allows SecretIn in a cluster; secrets of another
	// namespace are keyed "ns/name".
	crossNamespace bool
	problems       diag.Problems
	notes          []string
	warnings       diag.Problems
	// unset are the Kind/name of the objects Unset was asked of.
	unset []string
}

func (r *testRender) ConfigMap(name string) *Object { return r.configMaps[name] }
func (r *testRender) Secret(name string) *Object    { return r.secrets[name] }
func (r *testRender) SecretIn(ns, name string) (*Object, bool) {
	if r.cluster && !r.crossNamespace {
		return nil, false
	}
	return r.secrets[ns+"/"+name], true
}
func (r *testRender) Unset(o *Object, use string) { r.unset = append(r.unset, o.ref()+" "+use) }
func (r *testRender) FromCluster() bool           { return r.cluster }
func (r *testRender) Problem(p diag.Problem)      { r.problems = append(r.problems, p) }
func (r *testRender) Missing(p diag.Problem)      { r.problems = append(r.problems, p) }
func (r *testRender) Note(note string)            { r.notes = append(r.notes, note) }
func (r *testRender) Warn(p diag.Problem)         { r.warnings = append(r.warnings, p) }

// sorted returns the problems recorded, sorted, each once.
func (r *testRender) sorted() diag.Problems {
	ps := append(diag.Problems(nil), r.problems...)
	ps.Sort()
	return ps.Compact()
}

// messages lists the problems' messages, sorted.
func (r *testRender) messages() []string {
	var out []string
	for _, p := range r.sorted() {
		out = append(out, p.Message)
	}
	return out
}

// testBuilder is a builder of the Terraform object t (t.yaml) with spec,
// over a render that holds the ConfigMap cm (data region, bucket) and the
// Secret creds (access_key, secret_key).
func testBuilder(t *testing.T, spec string) (*builder, *testRender) {
	t.Helper()
	r := &testRender{
		configMaps: map[string]*Object{"cm": {Kind: KindConfigMap, Name: "cm", File: "e/cm.yaml", Data: map[string]string{"region": "us-east-1", "bucket": "states"}}},
		secrets:    map[string]*Object{"creds": {Kind: KindSecret, Name: "creds", File: "e/creds.yaml", Data: map[string]string{"access_key": "AK", "secret_key": "SK"}}},
	}
	tf := &Terraform{Name: "t", Namespace: "flux-system", File: "t.yaml", Spec: &Spec{}}
	obj := struct {
		Spec *Spec `json:"spec"`
	}{tf.Spec}
	if err := yaml.Unmarshal([]byte("spec:\n"+spec), &obj); err != nil {
		t.Fatal(err)
	}
	return &builder{tf: tf, stack: &environment.Stack{Name: "t"}, r: r}, r
}
