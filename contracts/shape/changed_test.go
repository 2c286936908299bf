package shape

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

func TestChanged(t *testing.T) {
	next := func(file string) (contracts.Document, []string) {
		t.Helper()
		data, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		doc, unknown, err := Next(data, nil)
		if err != nil {
			t.Fatalf("Next(%q) error: %v", file, err)
		}
		return doc, unknown
	}
	// After the apply of unknowns.json, its outputs as published.
	applied := contracts.Document{
		Public: map[string]any{
			"known": "v", "list": []any{"a", "b"}, "unk": "e5b25399-3bff-f015-0f51-87cadfb4fa60",
			"unklist": []any{"e5b25399-3bff-f015-0f51-87cadfb4fa60"},
			"obj":     map[string]any{"a": 1.0, "b": "e5b25399-3bff-f015-0f51-87cadfb4fa60"},
			"vpc":     "e5b25399-3bff-f015-0f51-87cadfb4fa60", "n": 3.0,
		},
		Private: map[string]any{"sec": "s"},
	}
	changes, _ := next("changes.json")
	unknowns, _ := next("unknowns.json")
	tests := []struct {
		name       string
		last, next contracts.Document
		unknown    []string
		want       []Field
	}{
		{
			// known becomes a list, list and unklist go, added comes;
			// obj, unk, vpc, n and sec keep their values.
			name: "values", last: applied, next: changes,
			want: []Field{priv("added", String), pub("known", String), pub("list", List), pub("unklist", List)},
		},
		{
			// Before the first apply every value tofu computes is
			// unknown: those keys count as changed.
			name: "unknown values", last: applied, next: unknowns,
			want: []Field{pub("obj", Object), pub("unk", String), pub("unklist", List), pub("vpc", String)},
		},
		{
			name: "a section unknown", last: applied, next: contracts.Document{Private: map[string]any{"sec": "s"}}, unknown: []string{"public"},
			want: []Field{pub("known", String), pub("list", List), pub("n", Number), pub("obj", Object), pub("unk", String), pub("unklist", List), pub("vpc", String)},
		},
		{name: "same", last: applied, next: applied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Changed(tt.last, tt.next, tt.unknown)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Changed() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKnown(t *testing.T) {
	tests := []struct {
		v    any
		want bool
	}{
		{"a", true},
		{nil, true},
		{map[string]any{"a": []any{1.0, "b"}}, true},
		{unknown{}, false},
		{map[string]any{"a": []any{1.0, unknown{}}}, false},
	}
	for _, tt := range tests {
		if got := Known(tt.v); got != tt.want {
			t.Errorf("Known(%#v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
