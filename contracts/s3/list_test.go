package s3

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/storetest"
)

func TestList(t *testing.T) {
	s, client := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	// More than one page: the store asks for the server's default page
	// (1000), so list enough to need a second one.
	var under []string
	for i := range 1010 {
		under = append(under, fmt.Sprintf("/configuration/svc%04d", i))
	}
	under = append(under, "/configuration/acme/api", "/configuration/acme/db")
	for _, key := range append(slices.Clone(under), "/configurations/other", "/configuration") {
		if err := s.Put(ctx, key, document(t, "x")); err != nil {
			t.Fatalf("Put(%q) = %v", key, err)
		}
	}
	// Objects that hold no document.
	putObject(t, client, "configuration/README", "x")
	putObject(t, client, "configuration/notes.txt", "x")
	storetest.ListPrefixes(t, s, under, "/configuration/svc0001")
}

func TestListErrors(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	noBucket, _ := newStore(t, Config{Region: "us-east-1", Bucket: "missing"})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		s      *Store
		ctx    context.Context
		prefix string
		want   string
	}{
		{"dot dot", s, context.Background(), "/configuration/..", `list contracts /configuration/.. in s3: invalid contract key "/configuration/..": segment ".." is not allowed`},
		{"empty segment", s, context.Background(), "/a//b", "empty segment"},
		{"no bucket", noBucket, context.Background(), "/configuration", "list contracts /configuration in s3://missing/configuration/: "},
		{"cancelled", s, cancelled, "/configuration", "list contracts /configuration in s3://contracts/configuration/: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.s.List(tt.ctx, tt.prefix)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("List(%q) = %v, want an error containing %q", tt.prefix, err, tt.want)
			}
		})
	}
}
