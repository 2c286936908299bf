package ssm

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/storetest"
)

// fill puts documents at keys and returns them sorted.
func fill(t *testing.T, s *Store, keys []string) []string {
	t.Helper()
	for _, key := range keys {
		if err := s.Put(context.Background(), key, document(t, key[strings.LastIndex(key, "/")+1:])); err != nil {
			t.Fatalf("Put(%q) = %v", key, err)
		}
	}
	return slices.Sorted(slices.Values(keys))
}

func TestList(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	// More than one page: SSM returns at most 10 parameters a page.
	var many []string
	for i := range 23 {
		many = append(many, fmt.Sprintf("/configuration/svc%02d", i))
	}
	under := fill(t, s, append(many, "/configuration/acme/api", "/configuration/acme/db"))
	fill(t, s, []string{"/configurations/other", "/configuration"})
	storetest.ListPrefixes(t, s, under, "/configuration/svc01")
}

func TestListErrors(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		prefix string
		want   string
	}{
		{"dot dot", context.Background(), "/configuration/..", `list contracts /configuration/.. in ssm: invalid contract key "/configuration/..": segment ".." is not allowed`},
		{"empty segment", context.Background(), "/a//b", "empty segment"},
		{"cancelled", cancelled, "/configuration", "list contracts /configuration in ssm: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.List(tt.ctx, tt.prefix)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("List(%q) = %v, want an error containing %q", tt.prefix, err, tt.want)
			}
		})
	}
}
