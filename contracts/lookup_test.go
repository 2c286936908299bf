package contracts

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLookup(t *testing.T) {
	d := Document{
		Installed: true, Version: "0.1.3", Stack: "db",
		UpdatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Public: map[string]any{
			"subnets":  []any{"a", "b"},
			"dns.zone": "example.com",
		},
		Private: map[string]any{
			"database": map[string]any{"endpoint": "db.internal", "port": 5432.0},
			"nothing":  nil,
		},
	}
	tests := []struct {
		property string
		want     any
		wantOK   bool
	}{
		{"private.database.endpoint", "db.internal", true},
		{"private.database.port", 5432.0, true},
		{"private.database", map[string]any{"endpoint": "db.internal", "port": 5432.0}, true},
		{"private.nothing", nil, true},
		{"public.subnets.1", "b", true},
		{`public.dns\.zone`, "example.com", true},
		{"version", "0.1.3", true},
		{"installed", true, true},
		{"stack", "db", true},
		{"updatedAt", "2025-01-02T03:04:05Z", true},
		{"private.database.missing", nil, false},
		{"private.database.endpoint.deeper", nil, false},
		{"public.subnets.2", nil, false},
		{"public.subnets.x", nil, false},
		{"public.subnets.-1", nil, false},
		{"public.dns.zone", nil, false},
		{"missing", nil, false},
		{"", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.property, func(t *testing.T) {
			got, ok := d.Lookup(tt.property)
			if ok != tt.wantOK {
				t.Fatalf("Lookup(%q) ok = %v, want %v", tt.property, ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Lookup(%q) mismatch (-want +got):\n%s", tt.property, diff)
			}
		})
	}
}

func TestLookupReturnsCopy(t *testing.T) {
	d := Document{Private: map[string]any{"db": map[string]any{"endpoint": "e"}}}
	v, _ := d.Lookup("private.db")
	v.(map[string]any)["endpoint"] = "changed"
	if got, _ := d.Lookup("private.db.endpoint"); got != "e" {
		t.Errorf("Lookup(%q) after changing the result = %v, want %q", "private.db.endpoint", got, "e")
	}
}

func TestSplitPath(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a", []string{"a"}},
		{"a.b.c", []string{"a", "b", "c"}},
		{`a\.b.c`, []string{"a.b", "c"}},
		{`a\b`, []string{`a\b`}},
		{"a..b", []string{"a", "", "b"}},
	}
	for _, tt := range tests {
		if got := splitPath(tt.in); !cmp.Equal(got, tt.want) {
			t.Errorf("splitPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
