package lineage

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/shape"
)

func TestRecord(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	day := func(n int) time.Time { return t0.Add(time.Duration(n) * 24 * time.Hour) }
	doc := func(version string, public, private map[string]any) contracts.Document {
		return contracts.Document{Installed: true, Version: version, Stack: "network", Public: public, Private: private}
	}
	field := func(section, name, typ string) shape.Field {
		return shape.Field{Section: section, Name: name, Type: typ}
	}
	key := func(f shape.Field, since int, version string, schema int) Key {
		return Key{Field: f, Since: day(since), SinceVersion: version, SinceSchema: schema}
	}
	vpc, cidr := field("public", "vpc_id", shape.String), field("public", "cidr", shape.String)
	subnets := field("public", "subnet_ids", shape.List)
	token := field("private", "token", shape.String)

	// Each step publishes a document on day i and expects the schema then.
	steps := []struct {
		name string
		doc  contracts.Document
		want Schema
	}{
		{
			name: "first publication",
			doc:  doc("0.1.0", map[string]any{"vpc_id": "vpc-1", "subnet_ids": []any{"a"}}, nil),
			want: Schema{Contract: "network", Version: 1, UpdatedAt: day(0),
				Keys: []Key{key(subnets, 0, "0.1.0", 1), key(vpc, 0, "0.1.0", 1)}},
		},
		{
			name: "same keys, new values: no change",
			doc:  doc("0.1.1", map[string]any{"vpc_id": "vpc-2", "subnet_ids": []any{"b", "c"}}, nil),
			want: Schema{Contract: "network", Version: 1, UpdatedAt: day(0),
				Keys: []Key{key(subnets, 0, "0.1.0", 1), key(vpc, 0, "0.1.0", 1)}},
		},
		{
			name: "keys added: same version",
			doc:  doc("0.2.0", map[string]any{"vpc_id": "vpc-2", "subnet_ids": []any{"b"}, "cidr": "10.0.0.0/16"}, map[string]any{"token": "t"}),
			want: Schema{Contract: "network", Version: 1, UpdatedAt: day(2),
				Keys: []Key{key(token, 2, "0.2.0", 1), key(cidr, 2, "0.2.0", 1), key(subnets, 0, "0.1.0", 1), key(vpc, 0, "0.1.0", 1)}},
		},
		{
			name: "a key removed: breaking",
			doc:  doc("0.3.0", map[string]any{"vpc_id": "vpc-2", "cidr": "10.0.0.0/16"}, map[string]any{"token": "t"}),
			want: Schema{Contract: "network", Version: 2, UpdatedAt: day(3),
				Keys: []Key{key(token, 2, "0.2.0", 1), key(cidr, 2, "0.2.0", 1), key(vpc, 0, "0.1.0", 1)}},
		},
		{
			name: "a type changed: breaking",
			doc:  doc("0.4.0", map[string]any{"vpc_id": "vpc-2", "cidr": []any{"10.0.0.0/16"}}, map[string]any{"token": "t"}),
			want: Schema{Contract: "network", Version: 3, UpdatedAt: day(4),
				Keys: []Key{key(token, 2, "0.2.0", 1), key(field("public", "cidr", shape.List), 2, "0.2.0", 1), key(vpc, 0, "0.1.0", 1)}},
		},
	}
	s := New(t.TempDir(), "demo", "dev")
	for i, st := range steps {
		got, err := s.Record("network", st.doc, day(i))
		if err != nil {
			t.Fatalf("%s: Record error: %v", st.name, err)
		}
		if diff := cmp.Diff(st.want, got); diff != "" {
			t.Errorf("%s: Record(network) mismatch (-want +got):\n%s", st.name, diff)
		}
		stored, ok, err := s.Get("network")
		if err != nil || !ok {
			t.Fatalf("%s: Get(network) = %v, %v", st.name, ok, err)
		}
		if diff := cmp.Diff(st.want, stored); diff != "" {
			t.Errorf("%s: Get(network) mismatch (-want +got):\n%s", st.name, diff)
		}
	}
}

func TestGetNone(t *testing.T) {
	s := New(t.TempDir(), "demo", "dev")
	if _, ok, err := s.Get("network"); ok || err != nil {
		t.Errorf("Get(network) on an empty store = %v, %v, want false, nil", ok, err)
	}
}

// No contract name reaches outside the store's directory.
func TestNames(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, "demo", "dev")
	tests := []struct {
		contract string
		wantErr  bool
	}{
		{"network", false},
		{"../../escape", false}, // escaped into one file name
		{"team/network", false},
		{"..", true},
		{".", true},
		{"", true},
	}
	for _, tt := range tests {
		t.Run(tt.contract, func(t *testing.T) {
			err := s.Put(Schema{Contract: tt.contract, Version: 1})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Put(%q) = %v, want error %v", tt.contract, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			p, _ := s.path(tt.contract)
			if !strings.HasPrefix(p, dir+"/contract-schemas/demo/dev/") || strings.Count(p[len(dir):], "/") != 4 {
				t.Errorf("path(%q) = %s, want a file directly in the store's directory", tt.contract, p)
			}
			if got, ok, err := s.Get(tt.contract); err != nil || !ok || got.Contract != tt.contract {
				t.Errorf("Get(%q) = %+v, %v, %v, want the schema put", tt.contract, got, ok, err)
			}
		})
	}
}
