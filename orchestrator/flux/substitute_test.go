package flux

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// substituteValue runs Flux's postBuild substitution over a ConfigMap whose
// value is text, as a Kustomization with vars would, and returns the value
// and the problems.
func substituteValue(t testing.TB, text string, vars map[string]string, annotations map[string]any) (string, diag.Problems) {
	t.Helper()
	l := newLoader(context.Background(), "/repo", "environments/c/e")
	k := &kustomization{}
	k.Kind, k.Metadata.Name, k.File = kindKustomization, "app", "environments/c/e/app.yaml"
	k.Spec.PostBuild = &postBuild{Substitute: vars}
	meta := map[string]any{"name": "cm"}
	if annotations != nil {
		meta["annotations"] = annotations
	}
	o := renderedObject{File: "apps/cm.yaml", Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": map[string]any{"v": text},
	}}
	out, _ := l.substituteObject(k, o, vars)
	data, _ := out.Object["data"].(map[string]any)
	v, _ := data["v"].(string)
	return v, l.sortedProblems()
}

func TestSubstituteObject(t *testing.T) {
	vars := map[string]string{
		"region":   "eu-central-1",
		"clientId": "acme",
		"empty":    "",
		"_x1":      "under",
	}
	badFix := "write variables as ${name} or ${name:=default} with names matching [_a-zA-Z][_a-zA-Z0-9]*, write a literal ${ as $${, or annotate the object kustomize.toolkit.fluxcd.io/substitute: disabled, in apps/cm.yaml"
	bad := func(msg string) diag.Problems {
		return diag.Problems{{File: "apps/cm.yaml", Object: "ConfigMap/cm", Message: "postBuild substitution of Kustomization app failed: " + msg, Fix: badFix}}
	}
	tests := []struct {
		name         string
		text         string
		annotations  map[string]any
		want         string
		wantProblems diag.Problems
	}{
		{name: "no variables", text: "kind: Terraform", want: "kind: Terraform"},
		{name: "plain", text: "region: ${region}", want: "region: eu-central-1"},
		{name: "several in one line", text: "${clientId}-${region}", want: "acme-eu-central-1"},
		{name: "underscore name", text: "${_x1}", want: "under"},
		{name: "default unused", text: "${region:=us-east-1}", want: "eu-central-1"},
		{name: "default used", text: "${zone:=a}", want: "a"},
		{name: "default for empty value", text: "${empty:=fallback}", want: "fallback"},
		{name: "empty value without default", text: "[${empty}]", want: "[]"},
		{name: "escaped", text: "$${region}", want: "${region}"},
		{name: "escaped missing", text: "$${nothing}", want: "${nothing}"},
		{name: "dollar name is left", text: "$region", want: "$region"},
		{
			name:        "disabled by annotation",
			text:        "${nothing} ${environment",
			annotations: map[string]any{"kustomize.toolkit.fluxcd.io/substitute": "disabled"},
			want:        "${nothing} ${environment",
		},
		{
			name:         "unclosed",
			text:         "${environment",
			want:         "${environment",
			wantProblems: bad("missing closing brace"),
		},
		{
			name:         "dash in a name",
			text:         "${env-ironment}",
			want:         "${env-ironment}",
			wantProblems: bad("missing closing brace"),
		},
		{
			name: "missing",
			text: "${zone}",
			want: "${zone}",
			wantProblems: diag.Problems{{
				File: "apps/cm.yaml", Object: "ConfigMap/cm", Message: `variable "zone" is not defined`,
				Fix: "add it to postBuild.substitute of Kustomization app in environments/c/e/app.yaml or to ConfigMap init (and list it in postBuild.substituteFrom), or give a default with ${zone:=value}",
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ps := substituteValue(t, tt.text, vars, tt.annotations)
			if got != tt.want {
				t.Errorf("substituteObject(%q) = %q, want %q", tt.text, got, tt.want)
			}
			if diff := cmp.Diff(tt.wantProblems, ps); diff != "" {
				t.Errorf("substituteObject(%q) problems mismatch (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// FuzzSubstitute feeds arbitrary text through Flux's postBuild
// substitution as strata calls it. It must never panic; every problem
// names the object's file; text without "$" comes back unchanged, but for
// bytes that are not UTF-8, each of which Flux's round trip through JSON
// turns into U+FFFD.
func FuzzSubstitute(f *testing.F) {
	for _, s := range []string{
		"", "plain", "${a}", "${a:=b}", "${a:-b}", "$${a}", "$$", "$", "${", "${}", "${a", "x${a}y${b:=c}z",
		"${ ${a} }", "$${a${b}}", "value: ${zone:=eu}\n---\nkind: X", "${env-ironment}",
	} {
		f.Add(s)
	}
	vars := map[string]string{"a": "A", "b": "", "zone": "z"}
	f.Fuzz(func(t *testing.T, text string) {
		got, ps := substituteValue(t, text, vars, nil)
		for _, p := range ps {
			if p.File != "apps/cm.yaml" {
				t.Errorf("substituteObject(%q) problem names file %q, want apps/cm.yaml", text, p.File)
			}
		}
		if want := string([]rune(text)); !strings.Contains(text, "$") && len(ps) == 0 && got != want {
			t.Errorf("substituteObject(%q) = %q, want %q", text, got, want)
		}
	})
}

func TestValidName(t *testing.T) {
	for in, want := range map[string]string{"my-var": "my_var", "1x": "_x", "ok_1": "ok_1", "": "_"} {
		if got := validName(in); got != want || !environment.ValidVarName(got) {
			t.Errorf("validName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSubstitutionVars(t *testing.T) {
	cm := func(name, file string, data map[string]string) *configMap {
		c := &configMap{Data: data}
		c.Kind, c.Metadata.Name, c.File = kindConfigMap, name, file
		return c
	}
	root := "environments/c/e"
	l := newLoader(context.Background(), "/repo", root)
	l.addConfigMap("", cm("init", root+"/init.yaml", map[string]string{"region": "eu", "zone": "a", "multi": "x\ny"}))
	l.addConfigMap("", cm("service-versions", root+"/_versions.yaml", map[string]string{"version_a_tf": "1.0.0"}))
	l.addConfigMap("g", cm("service-versions", root+"/g/_versions.yaml", map[string]string{"version_a_tf": "2.0.0", "bad-key": "x"}))
	l.addConfigMap("g", cm("overrides", root+"/g/o.yaml", map[string]string{"zone": "b"}))

	k := &kustomization{Group: "g"}
	k.Kind, k.Metadata.Name, k.File = kindKustomization, "app", root+"/g/app.yaml"
	k.Spec.PostBuild = &postBuild{
		Substitute: map[string]string{"region": "us", "bad-name": "x"},
		SubstituteFrom: []valuesRef{
			{Kind: "ConfigMap", Name: "init"},
			{Kind: "ConfigMap", Name: "service-versions"},
			{Kind: "ConfigMap", Name: "overrides"},
			{Kind: "ConfigMap", Name: "absent", Optional: true},
			{Kind: "Secret", Name: "creds", Optional: true},
		},
	}
	got := l.substitutionVars(k)
	want := map[string]string{
		"region":       "us",    // substitute wins over substituteFrom
		"zone":         "b",     // later substituteFrom wins
		"version_a_tf": "2.0.0", // the group's service-versions first
		"multi":        "xy",    // newlines are removed, as Flux does
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("substitutionVars() mismatch (-want +got):\n%s", diff)
	}
	wantProblems := diag.Problems{
		{
			File:    root + "/g/_versions.yaml",
			Object:  "ConfigMap/service-versions",
			Message: `key "bad-key" is not a valid substitution variable name, and the ConfigMap is used in postBuild.substituteFrom`,
			Fix:     `rename the key to match [_a-zA-Z][_a-zA-Z0-9]*, e.g. "bad_key"`,
		},
		{
			File:    root + "/g/app.yaml",
			Object:  "Kustomization/app",
			Message: `postBuild.substitute has the variable "bad-name", whose name is not valid`,
			Fix:     `rename it to match [_a-zA-Z][_a-zA-Z0-9]*, e.g. "bad_name"`,
		},
	}
	if diff := cmp.Diff(wantProblems, l.sortedProblems()); diff != "" {
		t.Errorf("substitutionVars() problems mismatch (-want +got):\n%s", diff)
	}
}
