package environment

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/diag"
)

func TestSubstitute(t *testing.T) {
	vars := map[string]string{
		"region":   "eu-central-1",
		"clientId": "acme",
		"empty":    "",
		"_x1":      "under",
	}
	tests := []struct {
		name        string
		text        string
		want        string
		wantMissing []string
	}{
		{name: "no variables", text: "kind: Terraform\n", want: "kind: Terraform\n"},
		{name: "plain", text: "region: ${region}", want: "region: eu-central-1"},
		{name: "several in one line", text: "${clientId}-${region}", want: "acme-eu-central-1"},
		{name: "underscore name", text: "${_x1}", want: "under"},
		{name: "default unused", text: "${region:=us-east-1}", want: "eu-central-1"},
		{name: "default used", text: "${zone:=a}", want: "a"},
		{name: "dash default used", text: "${zone:-b}", want: "b"},
		{name: "empty default", text: "[${zone:=}]", want: "[]"},
		{name: "default for empty value", text: "${empty:=fallback}", want: "fallback"},
		{name: "empty value without default", text: "[${empty}]", want: "[]"},
		{name: "default with colon", text: "${zone:=a:b}", want: "a:b"},
		{name: "escaped", text: "$${region}", want: "${region}"},
		{name: "escaped missing", text: "$${nothing}", want: "${nothing}"},
		{name: "escape then variable", text: "$${a}${region}", want: "${a}eu-central-1"},
		{name: "dollar name is left", text: "$region $", want: "$region $"},
		{name: "double dollar without brace", text: "cost: $$5", want: "cost: $$5"},
		{name: "not a name", text: "${var.region} ${1x} ${}", want: "${var.region} ${1x} ${}"},
		{name: "other operator is left", text: "${region:?unset}", want: "${region:?unset}"},
		{name: "unclosed", text: "${region", want: "${region"},
		{name: "unclosed with escapes", text: "${a $${b $$${c", want: "${a ${b $${c"},
		{name: "escape before last close", text: "$${a ${region}", want: "${a eu-central-1"},
		{name: "inner reference", text: "${ ${region} }", want: "${ eu-central-1 }"},
		{
			name:        "missing",
			text:        "${zone} ${zone} ${rack}",
			want:        "${zone} ${zone} ${rack}",
			wantMissing: []string{"zone", "rack"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, missing := Substitute(tt.text, vars)
			if got != tt.want || !cmp.Equal(missing, tt.wantMissing) {
				t.Errorf("Substitute(%q) = %q, %q, want %q, %q", tt.text, got, missing, tt.want, tt.wantMissing)
			}
		})
	}
}

func FuzzSubstitute(f *testing.F) {
	for _, s := range []string{
		"", "plain", "${a}", "${a:=b}", "${a:-b}", "$${a}", "$$", "$", "${", "${}", "${a", "x${a}y${b:=c}z",
		"${ ${a} }", "$${a${b}}", "value: ${zone:=eu}\n---\nkind: X",
	} {
		f.Add(s)
	}
	vars := map[string]string{"a": "A", "b": "", "zone": "z"}
	f.Fuzz(func(t *testing.T, text string) {
		got, missing := Substitute(text, vars)
		if !strings.Contains(text, "$") {
			if got != text || missing != nil {
				t.Errorf("Substitute(%q) = %q, %q, want the text unchanged", text, got, missing)
			}
		}
		for _, m := range missing {
			if !ValidVarName(m) {
				t.Errorf("Substitute(%q) reported missing variable %q, not a valid name", text, m)
			}
			if !strings.Contains(got, "${"+m) {
				t.Errorf("Substitute(%q) = %q, lost the reference to missing %q", text, got, m)
			}
		}
		// With every variable defined, nothing is missing.
		all := map[string]string{}
		for k, v := range vars {
			all[k] = v
		}
		for _, m := range missing {
			all[m] = "v"
		}
		if _, again := Substitute(text, all); len(again) != 0 {
			t.Errorf("Substitute(%q) with %q defined still misses %q", text, missing, again)
		}
	})
}

func TestValidName(t *testing.T) {
	for in, want := range map[string]string{"my-var": "my_var", "1x": "_x", "ok_1": "ok_1", "": "_"} {
		if got := validName(in); got != want || !ValidVarName(got) {
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
