package ssm

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

func TestGetByPath(t *testing.T) {
	s, client := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	want := map[string]contracts.Document{}
	for i := range 12 {
		key := fmt.Sprintf("/configuration/svc%02d", i)
		d := document(t, fmt.Sprintf("svc%02d", i))
		if i%2 == 0 {
			d.Private = map[string]any{}
		}
		if err := s.Put(ctx, key, d); err != nil {
			t.Fatal(err)
		}
		want[key] = d
	}
	base := publicOnly(t, "base")
	base.Public = map[string]any{"domain": "stage.tenant-a.tld", "cluster": map[string]any{"name": "main"}}
	if err := s.Put(ctx, "/configuration/base", base); err != nil {
		t.Fatal(err)
	}
	want["/configuration/base"] = base
	if err := s.Put(ctx, "/elsewhere/x", document(t, "x")); err != nil {
		t.Fatal(err)
	}

	got, err := s.GetByPath(ctx, "/configuration")
	if err != nil {
		t.Fatalf("GetByPath(%q) = %v, want nil", "/configuration", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GetByPath(%q) mismatch (-want +got):\n%s", "/configuration", diff)
	}

	// The seed's consumer: module.ssm_data.values["base"]["domain"].
	selected, err := contracts.Select(got, "/configuration", "(base|svc01)")
	if err != nil {
		t.Fatalf("Select() = %v", err)
	}
	if v, ok := selected["base"].Lookup("public.domain"); !ok || v != "stage.tenant-a.tld" {
		t.Errorf("Select()[%q].Lookup(%q) = %v, %v, want stage.tenant-a.tld", "base", "public.domain", v, ok)
	}
	if v, ok := selected["svc01"].Lookup("private.database.endpoint"); !ok || v != "db.internal" {
		t.Errorf("Select()[%q].Lookup(%q) = %v, %v, want db.internal (decrypted)", "svc01", "private.database.endpoint", v, ok)
	}

	empty, err := s.GetByPath(ctx, "/missing")
	if err != nil || len(empty) != 0 {
		t.Errorf("GetByPath(%q) = %v, %v, want no documents", "/missing", empty, err)
	}

	put(t, client, "/configuration/text", "not json")
	_, err = s.GetByPath(ctx, "/configuration")
	if err == nil || !strings.Contains(err.Error(), "get contracts under /configuration from ssm: /configuration/text: decode") {
		t.Errorf("GetByPath(%q) with a stray parameter = %v, want an error naming it", "/configuration", err)
	}
}
