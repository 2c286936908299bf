package flux

import (
	"context"
	"testing"

	"github.com/fluxcd/pkg/kustomize"
	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/provider"
	sigsyaml "sigs.k8s.io/yaml"
)

// fluxSubstitute is kustomize-controller's substitution of obj: its
// library's, over the object's YAML text, read back as strata reads a
// built object.
func fluxSubstitute(t testing.TB, obj map[string]any, vars map[string]string, strict bool) (map[string]any, error) {
	t.Helper()
	res, err := provider.NewDefaultDepProvider().GetResourceFactory().FromMap(obj)
	if err != nil {
		t.Fatalf("FromMap(%v) = %v", obj, err)
	}
	sub := map[string]any{}
	for k, v := range vars {
		sub[k] = v
	}
	spec := unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"postBuild": map[string]any{"substitute": sub}}}}
	out, err := kustomize.SubstituteVariables(context.Background(), nil, spec, res, kustomize.SubstituteWithDryRun(true), kustomize.SubstituteWithStrict(strict))
	if err != nil || out == nil {
		return nil, err
	}
	return objectMap(out)
}

// configMapOf is a ConfigMap whose data are values.
func configMapOf(values map[string]any) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "apps"}, "data": values}
}

// TestSubstituteScalarsAsFlux: where substituteScalars takes an object,
// it gives what Flux's round trip through YAML gives; where that round
// trip changes more than the variables, it leaves the object to it.
func TestSubstituteScalarsAsFlux(t *testing.T) {
	vars := map[string]string{"env": "dev", "region": "eu-west-1", "n": "5", "yes": "true", "spaced": "a: b", "empty": "", "hash": "x #y", "dollar": "$"}
	for _, tt := range []struct {
		name   string
		values map[string]any
		strict bool
		want   bool // taken by substituteScalars
	}{
		{"variables in a name", map[string]any{"v": "app-${env}-${region}", "w": "plain"}, true, true},
		{"a default", map[string]any{"v": "${missing:=fallback}-x"}, true, true},
		{"no variable", map[string]any{"v": "plain", "n": int64(3), "b": true, "f": 1.5, "z": nil, "l": []any{"a", "b"}}, true, true},
		{"a lenient missing one", map[string]any{"v": "a${missing}b"}, false, true},
		{"a strict missing one", map[string]any{"v": "a${missing}b"}, true, false},
		{"a number comes out", map[string]any{"v": "${n}"}, true, false},
		{"a boolean comes out", map[string]any{"v": "${yes}"}, true, false},
		{"a mapping comes out", map[string]any{"v": "${spaced}"}, true, false},
		{"a comment comes out", map[string]any{"v": "${hash}"}, true, false},
		{"empty comes out", map[string]any{"v": "${empty}"}, true, false},
		{"a quoted string", map[string]any{"v": "'${env}'"}, true, false},
		{"an open brace", map[string]any{"v": "${env"}, true, false},
		{"a key", map[string]any{"${env}": "v"}, true, false},
		{"a whole float", map[string]any{"v": "${env}", "f": 2.0}, true, false},
		{"a dollar value", map[string]any{"v": "x${dollar}y"}, true, true},
		{"nested", map[string]any{"v": map[string]any{"w": []any{"${env}", map[string]any{"x": "${region}"}}}}, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			obj := configMapOf(tt.values)
			got, _, ok := substituteScalars(obj, vars, tt.strict)
			if ok != tt.want {
				t.Errorf("substituteScalars(%v) ok = %v, want %v", tt.values, ok, tt.want)
			}
			if !ok {
				return
			}
			want, err := fluxSubstitute(t, configMapOf(tt.values), vars, tt.strict)
			if err != nil {
				t.Fatalf("Flux's substitution of %v = %v, and substituteScalars took it", tt.values, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("substituteScalars(%v) mismatch with Flux's (-flux +got):\n%s", tt.values, diff)
			}
		})
	}
}

// FuzzSubstituteScalars holds substituteScalars to Flux's substitution
// over any string and variable value.
func FuzzSubstituteScalars(f *testing.F) {
	for _, s := range [][2]string{{"app-${env}", "dev"}, {"${env}", "1.0"}, {"x${env:=y}", ""}, {"$env-${env}", "a b"}, {"${env}", "no"}, {"a$${env}", "~"}} {
		f.Add(s[0], s[1], true)
	}
	f.Fuzz(func(t *testing.T, value, v string, strict bool) {
		vars := map[string]string{"env": v}
		obj := configMapOf(map[string]any{"v": value, "list": []any{value, "k"}})
		got, _, ok := substituteScalars(obj, vars, strict)
		if !ok {
			return
		}
		want, err := fluxSubstitute(t, configMapOf(map[string]any{"v": value, "list": []any{value, "k"}}), vars, strict)
		if err != nil {
			t.Fatalf("Flux's substitution of %q with env=%q = %v, and substituteScalars took it: %v", value, v, err, got)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("substituteScalars(%q, env=%q) mismatch with Flux's (-flux +got):\n%s", value, v, diff)
		}
	})
}

// TestPlainWord checks plainWord against what sigs.k8s.io/yaml does with
// each string: a word it takes is written as it is and read back as
// itself.
func TestPlainWord(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"services-0001-${environment}-${region}", true},
		{"eu-west-1", true},
		{"${environment}", true},
		{"_x.y/z", true},
		{"Yes", false}, {"off", false}, {"NULL", false}, {"y", false},
		{"1e3", false}, {"2001-12-14", false}, {"-x", false}, {".inf", false},
		{"a b", false}, {"a:b", false}, {"a#b", false}, {"", false}, {"~", false},
		{"é", false}, {"a\tb", false},
	}
	for _, tt := range tests {
		if got := plainWord(tt.s); got != tt.want {
			t.Errorf("plainWord(%q) = %v, want %v", tt.s, got, tt.want)
		}
		checkPlainWord(t, tt.s)
	}
}

// checkPlainWord fails when plainWord takes s but sigs.k8s.io/yaml would
// not write it as it is, or not read it back as itself.
func checkPlainWord(t *testing.T, s string) {
	t.Helper()
	if !plainWord(s) {
		return
	}
	b, err := sigsyaml.Marshal(map[string]string{"k": s})
	if err != nil || string(b) != "k: "+s+"\n" {
		t.Errorf("plainWord(%q) = true, but sigs.k8s.io/yaml writes %q, %v", s, b, err)
	}
	var m map[string]any
	if err := sigsyaml.Unmarshal([]byte("k: "+s+"\n"), &m); err != nil || m["k"] != s {
		t.Errorf("plainWord(%q) = true, but sigs.k8s.io/yaml reads it back as %#v, %v", s, m["k"], err)
	}
}

// FuzzPlainWord holds plainWord to sigs.k8s.io/yaml for any string.
func FuzzPlainWord(f *testing.F) {
	for _, s := range []string{"a-${b}", "Yes", "x.y", "$", "a{b}c"} {
		f.Add(s)
	}
	f.Fuzz(checkPlainWord)
}
