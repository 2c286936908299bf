package stores

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

// TestReadPathAndSelect reads a path from every kind of store: with List
// and Get from local, with GetByPath from ssm and s3.
func TestReadPathAndSelect(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st, err := Open(ctx, b.in(t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"base", "foo", "bar", "database", "acme/api"} {
				if err := st.Put(ctx, contracts.Key("", name), document(t, name)); err != nil {
					t.Fatalf("Put(%q) = %v", name, err)
				}
			}
			if err := st.Put(ctx, "/elsewhere/base", document(t, "elsewhere")); err != nil {
				t.Fatal(err)
			}
			docs, err := contracts.ReadPath(ctx, st, "/configuration")
			if err != nil {
				t.Fatalf("ReadPath(%q) = %v, want nil", "/configuration", err)
			}
			want := []string{"/configuration/acme/api", "/configuration/bar", "/configuration/base", "/configuration/database", "/configuration/foo"}
			if diff := cmp.Diff(want, slices.Sorted(maps.Keys(docs))); diff != "" {
				t.Errorf("ReadPath(%q) keys mismatch (-want +got):\n%s", "/configuration", diff)
			}
			selected, err := contracts.Select(docs, "/configuration", "(base|foo|bar)")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"bar", "base", "foo"}, slices.Sorted(maps.Keys(selected))); diff != "" {
				t.Errorf("Select() names mismatch (-want +got):\n%s", diff)
			}
			if selected["base"].Stack != "base" {
				t.Errorf(`Select()["base"].Stack = %q, want base`, selected["base"].Stack)
			}
			if v, ok := selected["foo"].Lookup("private.database.endpoint"); !ok || v != "db.internal" {
				t.Errorf(`Select()["foo"].Lookup("private.database.endpoint") = %v, %v, want db.internal`, v, ok)
			}
		})
	}
}
