package history

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
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

// TestStacksDamagedHeads lists the stacks of a file whose chunks of heads
// hold a key that does not decode: from the stacks' buckets.
func TestStacksDamagedHeads(t *testing.T) {
	s, _ := open(t)
	begin(t, s, "acme", "dev", "network")
	begin(t, s, "acme", "dev", "api")
	if err := s.update(func(tx *bolt.Tx) error {
		bad := append(envPrefix("acme", "dev"), 0x7f, 'x')
		return tx.Bucket(indexBucket).Bucket(indexChunks).Put(bad, encodeChunk([]chunkEntry{{"x", []byte("{}")}}))
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Stacks(context.Background(), "acme", "dev")
	if want := []string{"api", "network"}; err != nil || !cmp.Equal(got, want) {
		t.Errorf("Stacks(acme/dev) with a damaged head key = %v, %v, want %v", got, err, want)
	}
}
