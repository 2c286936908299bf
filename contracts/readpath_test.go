package contracts_test

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/local"
	"github.com/strata-iac/strata/contracts/storetest"
)

// TestReadPathListAndGet reads a path from the local store, which has no
// GetByPath: ReadPath lists the keys and gets each. The ssm and s3 stores
// are read through GetByPath in package stores' tests.
func TestReadPathListAndGet(t *testing.T) {
	ctx := context.Background()
	st := local.New(t.TempDir())
	for _, key := range []string{"/configuration/base", "/configuration/acme/api", "/elsewhere/base"} {
		if err := st.Put(ctx, key, storetest.Document(t, key)); err != nil {
			t.Fatalf("Put(%q) = %v", key, err)
		}
	}
	tests := []struct {
		prefix string
		want   []string
	}{
		{"/configuration", []string{"/configuration/acme/api", "/configuration/base"}},
		{"/elsewhere", []string{"/elsewhere/base"}},
		{"/nothing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			docs, err := contracts.ReadPath(ctx, st, tt.prefix)
			if err != nil {
				t.Fatalf("ReadPath(%q) = %v, want nil", tt.prefix, err)
			}
			if diff := cmp.Diff(tt.want, slices.Sorted(maps.Keys(docs))); diff != "" {
				t.Errorf("ReadPath(%q) keys mismatch (-want +got):\n%s", tt.prefix, diff)
			}
			for key, d := range docs {
				if d.Stack != key {
					t.Errorf("ReadPath(%q)[%q].Stack = %q, want %q", tt.prefix, key, d.Stack, key)
				}
			}
		})
	}
}
