package contracts

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelect(t *testing.T) {
	docs := map[string]Document{}
	for _, key := range []string{
		"/configuration/base", "/configuration/foo", "/configuration/bar",
		"/configuration/database", "/configuration/foobar", "/configuration/baz",
		"/configuration/acme/api", "/configuration/acme/base",
		"/configurations/base", "/other/base",
	} {
		d := validDocument()
		d.Stack = key
		docs[key] = d
	}
	tests := []struct {
		name   string
		prefix string
		regex  string
		want   []string // names selected
	}{
		{"seed filter", "/configuration", "(base|foo|bar)", []string{"bar", "base", "foo"}},
		{"whole name only", "/configuration", "base", []string{"base"}},
		{"unanchored needs .*", "/configuration", ".*base", []string{"acme/base", "base", "database"}},
		{"prefix match needs .*", "/configuration", "foo.*", []string{"foo", "foobar"}},
		{"alternation without group", "/configuration", "base|foo", []string{"base", "foo"}},
		{"nested names", "/configuration", "acme/.*", []string{"acme/api", "acme/base"}},
		{"class", "/configuration", "ba[rz]", []string{"bar", "baz"}},
		{"explicit anchors still work", "/configuration", "^(base)$", []string{"base"}},
		{"empty selects all under prefix", "/configuration", "", []string{
			"acme/api", "acme/base", "bar", "base", "baz", "database", "foo", "foobar",
		}},
		{"trailing slash", "/configuration/", "base", []string{"base"}},
		{"no leading slash", "configuration", "base", []string{"base"}},
		{"deeper prefix", "/configuration/acme", "base", []string{"base"}},
		{"not a prefix of a segment", "/configuration/ac", ".*", nil},
		{"root prefix", "/", "other/base|configurations/base", []string{"configurations/base", "other/base"}},
		{"empty prefix", "", "other/.*", []string{"other/base"}},
		{"nothing matches", "/configuration", "nope", nil},
		{"missing prefix", "/missing", ".*", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(docs, tt.prefix, tt.regex)
			if err != nil {
				t.Fatalf("Select(%q, %q) = %v, want nil", tt.prefix, tt.regex, err)
			}
			names := slices.Sorted(maps.Keys(got))
			if diff := cmp.Diff(tt.want, names); diff != "" {
				t.Errorf("Select(%q, %q) names mismatch (-want +got):\n%s", tt.prefix, tt.regex, diff)
			}
			base := "/" + strings.Trim(tt.prefix, "/")
			for name, d := range got {
				if want := strings.TrimSuffix(base, "/") + "/" + name; d.Stack != want {
					t.Errorf("Select(%q, %q)[%q] = the document of %s, want %s", tt.prefix, tt.regex, name, d.Stack, want)
				}
			}
		})
	}
}

func TestSelectSeedUsage(t *testing.T) {
	base := validDocument()
	base.Public = map[string]any{"domain": "stage.tenant-a.tld", "cluster": map[string]any{"name": "main"}}
	docs := map[string]Document{"/configuration/base": base, "/configuration/database": validDocument()}
	got, err := Select(docs, "/configuration", "(base|foo|bar)")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := got["base"].Lookup("public.cluster.name"); !ok || v != "main" {
		t.Errorf(`Select()["base"].Lookup("public.cluster.name") = %v, %v, want main`, v, ok)
	}
	if _, ok := got["database"]; ok {
		t.Errorf(`Select(%q) selected "database", want only whole-name matches`, "(base|foo|bar)")
	}
}

func TestSelectErrors(t *testing.T) {
	docs := map[string]Document{"/configuration/a": validDocument(), "/configuration/xb": validDocument()}
	tests := []struct {
		regex string
		want  string
	}{
		{"(base", `select contracts under /configuration: include regex "(base": error parsing regexp: missing closing )`},
		{"a)|(b", `include regex "a)|(b": error parsing regexp: unexpected )`},
		{"[", `include regex "[": error parsing regexp`},
	}
	for _, tt := range tests {
		t.Run(tt.regex, func(t *testing.T) {
			got, err := Select(docs, "/configuration", tt.regex)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Select(%q) = %v, %v, want an error containing %q", tt.regex, got, err, tt.want)
			}
		})
	}
}
