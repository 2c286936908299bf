package shape

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

func pub(name, typ string) Field  { return Field{Section: "public", Name: name, Type: typ} }
func priv(name, typ string) Field { return Field{Section: "private", Name: name, Type: typ} }

// published is the contract testdata/changes.json's producer published
// before that plan: the outputs of the configuration that planned
// testdata/unknowns.json, once applied.
var published = contracts.Document{
	Installed: true,
	Public: map[string]any{
		"known": "v", "list": []any{"a", "b"}, "unk": "e5b2", "unklist": []any{"e5b2"},
		"obj": map[string]any{"a": 1.0, "b": "e5b2"},
		"vpc": "e5b2", "n": 3.0,
	},
	Private: map[string]any{"sec": "s"},
}

func TestOf(t *testing.T) {
	got := Of(published)
	want := Shape{Fields: []Field{
		priv("sec", String),
		pub("known", String), pub("list", List), pub("n", Number), pub("obj", Object),
		pub("unk", String), pub("unklist", List), pub("vpc", String),
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Of(published) mismatch (-want +got):\n%s", diff)
	}
}

func TestFromPlan(t *testing.T) {
	tests := []struct {
		file string
		only []string
		want Shape
	}{
		{
			// Values only known after apply are present, with as much
			// of their type as the plan shows.
			file: "unknowns.json",
			want: Shape{Fields: []Field{
				priv("sec", String),
				pub("known", String), pub("list", List), pub("n", Number), pub("obj", Object),
				pub("unk", Unknown), pub("unklist", List), pub("vpc", Unknown),
			}},
		},
		{
			file: "changes.json",
			want: Shape{Fields: []Field{
				priv("added", String), priv("sec", String),
				pub("known", List), pub("n", Number), pub("obj", Object),
				pub("unk", String), pub("vpc", String),
			}},
		},
		{
			file: "changes.json",
			only: []string{"known", "sec"},
			want: Shape{Fields: []Field{priv("sec", String), pub("known", List)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := FromPlan(data, tt.only)
			if err != nil {
				t.Fatalf("FromPlan(%q, %q) error: %v", tt.file, tt.only, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("FromPlan(%q, %q) mismatch (-want +got):\n%s", tt.file, tt.only, diff)
			}
		})
	}
}

// An explicit public output tofu knows nothing of before apply leaves the
// public keys unknown.
func TestFromPlanUnknownSection(t *testing.T) {
	plan := `{"format_version":"1.2","planned_values":{"outputs":{
		"public":{"sensitive":false},"token":{"sensitive":true,"type":"string","value":"x"}}},
		"output_changes":{"public":{"actions":["create"],"after_unknown":true}}}`
	got, err := FromPlan([]byte(plan), nil)
	if err != nil {
		t.Fatalf("FromPlan error: %v", err)
	}
	want := Shape{Fields: []Field{priv("token", String)}, Unknown: []string{"public"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FromPlan mismatch (-want +got):\n%s", diff)
	}
	last := Shape{Fields: []Field{priv("token", String), pub("vpc", String)}}
	if d := Compare(last, got); len(d.Removed) != 0 {
		t.Errorf("Compare(published, unknown public).Removed = %v, want none: the keys may still be there", d.Removed)
	}
}

func TestFromPlanErrors(t *testing.T) {
	tests := []struct {
		name, plan string
		only       []string
	}{
		{"not json", `{`, nil},
		{"missing output", `{"planned_values":{"outputs":{}}}`, []string{"vpc_id"}},
		{"sensitive public", `{"planned_values":{"outputs":{"public":{"sensitive":true,"value":{}}}}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := FromPlan([]byte(tt.plan), tt.only); err == nil {
				t.Errorf("FromPlan(%q, %q) = nil error, want one", tt.plan, tt.only)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	data, err := os.ReadFile("testdata/changes.json")
	if err != nil {
		t.Fatal(err)
	}
	next, err := FromPlan(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := Of(published)
	moved := Shape{Fields: []Field{priv("known", String), priv("sec", String), pub("list", List)}}
	tests := []struct {
		name       string
		last, next Shape
		want       Difference
		breaking   bool
	}{
		{
			name: "plan", last: last, next: next, breaking: true,
			want: Difference{
				Removed: []Field{pub("list", List), pub("unklist", List)},
				Moved:   []Move{},
				Changed: []Change{{Field: pub("known", String), To: List}},
				Added:   []Field{priv("added", String)},
			},
		},
		{
			name: "moved to private", last: Shape{Fields: []Field{pub("known", String), priv("sec", String), pub("list", List)}}, next: moved, breaking: true,
			want: Difference{Removed: []Field{}, Moved: []Move{{Field: pub("known", String), To: "private"}}, Changed: []Change{}, Added: []Field{}},
		},
		{
			name: "added only", last: Shape{Fields: []Field{pub("list", List)}}, next: moved, breaking: false,
			want: Difference{Removed: []Field{}, Moved: []Move{}, Changed: []Change{}, Added: []Field{priv("known", String), priv("sec", String)}},
		},
		{
			name: "null and unknown are compatible", last: Shape{Fields: []Field{pub("a", Null), pub("b", String)}},
			next: Shape{Fields: []Field{pub("a", List), pub("b", Unknown)}}, breaking: false,
			want: Difference{Removed: []Field{}, Moved: []Move{}, Changed: []Change{}, Added: []Field{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.last, tt.next)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Compare(%v, %v) mismatch (-want +got):\n%s", tt.last, tt.next, diff)
			}
			if got.Breaking() != tt.breaking {
				t.Errorf("Compare(%v, %v).Breaking() = %v, want %v", tt.last, tt.next, got.Breaking(), tt.breaking)
			}
		})
	}
}
