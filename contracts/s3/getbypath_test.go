package s3

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
	for i := range 5 {
		key := fmt.Sprintf("/configuration/svc%d", i)
		d := document(t, fmt.Sprintf("svc%d", i))
		if err := s.Put(ctx, key, d); err != nil {
			t.Fatal(err)
		}
		want[key] = d
	}
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

	putObject(t, client, "configuration/text.json", "not json")
	_, err = s.GetByPath(ctx, "/configuration")
	if err == nil || !strings.Contains(err.Error(), "get contracts under /configuration: get contract /configuration/text from s3://contracts/configuration/text.json: decode") {
		t.Errorf("GetByPath(%q) with a stray object = %v, want an error naming it", "/configuration", err)
	}
}
