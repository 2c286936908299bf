package storetest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

// Document builds a document for the stack with public data and a private
// part shaped like the seed's database contract.
func Document(t testing.TB, stack string) contracts.Document {
	t.Helper()
	d, err := contracts.Build(stack, "0.1.3", map[string]contracts.Output{
		"vpc_id":  {Value: "vpc-1"},
		"subnets": {Value: []any{"a", "b"}},
		"private": {Value: map[string]any{"database": map[string]any{
			"endpoint": "db.internal", "port": 5432.0, "database_username": "app",
		}}},
	}, nil, time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// RoundTrip writes a document and reads it back unchanged, then resolves
// the properties an ExternalSecret with remoteRef.key /configuration/foo
// reads.
func RoundTrip(t *testing.T, s contracts.Store) {
	t.Helper()
	ctx := context.Background()
	key := contracts.Key("", "foo")
	want := Document(t, "foo")
	if err := s.Put(ctx, key, want); err != nil {
		t.Fatalf("Put(%q) = %v, want nil", key, err)
	}
	got, err := s.Get(ctx, key)
	if err != nil {
		t.Fatalf("Get(%q) = %v, want nil", key, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Get(%q) mismatch (-want +got):\n%s", key, diff)
	}
	for _, p := range []struct {
		property string
		want     any
	}{
		{"private.database.endpoint", "db.internal"},
		{"private.database.database_username", "app"},
		{"private.database.port", 5432.0},
		{"public.subnets.1", "b"},
		{"stack", "foo"},
	} {
		if v, ok := got.Lookup(p.property); !ok || !cmp.Equal(v, p.want) {
			t.Errorf("Lookup(%q) = %v, %v, want %v", p.property, v, ok, p.want)
		}
	}
}

// NotFound checks that keys without a document, beside and below one
// that exists, are contracts.ErrNotFound, with an error that starts with
// "get contract KEY from WHERE".
func NotFound(t *testing.T, s contracts.Store, where string) {
	t.Helper()
	ctx := context.Background()
	if err := s.Put(ctx, "/configuration/foo", Document(t, "foo")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"/configuration/missing", "/configuration", "/configuration/foo/bar"} {
		t.Run(key, func(t *testing.T) {
			_, err := s.Get(ctx, key)
			if !errors.Is(err, contracts.ErrNotFound) || !strings.Contains(err.Error(), "get contract "+key+" from "+where) {
				t.Errorf("Get(%q) = %v, want an error naming the key and %s, wrapping ErrNotFound", key, err, where)
			}
		})
	}
}

// ListPrefixes checks how List reads prefixes, on a store holding exactly
// the documents under (keys below /configuration, one of them deeper, under
// /configuration/acme), /configurations/other and /configuration itself.
// leaf is a key of under, which as a prefix lists nothing.
func ListPrefixes(t *testing.T, s contracts.Store, under []string, leaf string) {
	t.Helper()
	ctx := context.Background()
	under = slices.Sorted(slices.Values(under))
	all := slices.Sorted(slices.Values(append(slices.Clone(under), "/configurations/other", "/configuration")))
	var acme []string
	for _, k := range under {
		if strings.HasPrefix(k, "/configuration/acme/") {
			acme = append(acme, k)
		}
	}
	tests := []struct {
		prefix string
		want   []string
	}{
		{"/configuration", under},
		{"/configuration/", under},
		{"configuration", under},
		{"/configuration/acme", acme},
		{"/configurations", []string{"/configurations/other"}},
		{"/missing", nil},
		{leaf, nil},
		{"/", all},
		{"", all},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			got, err := s.List(ctx, tt.prefix)
			if err != nil {
				t.Fatalf("List(%q) = %v, want nil", tt.prefix, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("List(%q) mismatch (-want +got):\n%s", tt.prefix, diff)
			}
		})
	}
}
