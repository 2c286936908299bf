package history

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStacks(t *testing.T) {
	s, _ := open(t)
	for _, k := range [][3]string{
		{"acme", "dev", "network"}, {"acme", "dev", "api"}, {"acme", "dev", "api"},
		{"acme", "dev", "cluster"}, {"acme", "prod", "network"}, {"beta", "dev", "db"},
		{"acme", "dev", "zz"}, {"acme", "devx", "a"}, {"acm", "edev", "b"},
	} {
		begin(t, s, k[0], k[1], k[2])
	}
	tests := []struct {
		client, env string
		want        []string
	}{
		{"acme", "dev", []string{"api", "cluster", "network", "zz"}},
		{"acme", "devx", []string{"a"}},
		{"acm", "edev", []string{"b"}},
		{"acme", "prod", []string{"network"}},
		{"beta", "dev", []string{"db"}},
		{"beta", "prod", nil},
		{"gamma", "dev", nil},
	}
	// From the heads, and from the stacks' buckets, as a reader of a file
	// without current heads reads them.
	for _, heads := range []bool{true, false} {
		s.heads = heads
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%s heads=%v", tt.client, tt.env, heads), func(t *testing.T) {
				got, err := s.Stacks(context.Background(), tt.client, tt.env)
				if err != nil {
					t.Fatalf("Stacks(%q, %q) = %v, want nil", tt.client, tt.env, err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Stacks(%q, %q) mismatch (-want +got):\n%s", tt.client, tt.env, diff)
				}
			})
		}
	}
}
