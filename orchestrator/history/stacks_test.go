package history

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStacks(t *testing.T) {
	s, _ := open(t)
	for _, k := range [][3]string{
		{"acme", "dev", "network"}, {"acme", "dev", "api"}, {"acme", "dev", "api"},
		{"acme", "dev", "cluster"}, {"acme", "prod", "network"}, {"beta", "dev", "db"},
	} {
		begin(t, s, k[0], k[1], k[2])
	}
	tests := []struct {
		client, env string
		want        []string
	}{
		{"acme", "dev", []string{"api", "cluster", "network"}},
		{"acme", "prod", []string{"network"}},
		{"beta", "dev", []string{"db"}},
		{"beta", "prod", nil},
		{"gamma", "dev", nil},
	}
	for _, tt := range tests {
		t.Run(tt.client+"/"+tt.env, func(t *testing.T) {
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
