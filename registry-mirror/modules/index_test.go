package modules

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

func TestVersions(t *testing.T) {
	ctx := context.Background()
	for _, b := range mirrortest.Storages {
		t.Run(b.Name, func(t *testing.T) {
			s := NewStore(b.New(t))
			for _, v := range []string{"1.10.0", "1.9.0", "2.0.0-rc.2", "2.0.0-rc.10", "0.1.0", "2.0.0"} {
				if err := s.Add(ctx, "strata", "echo", "null", v, bytes.NewReader(mirrortest.Module(t, v))); err != nil {
					t.Fatalf("Add(%s) = %v", v, err)
				}
			}
			// What is not an archive of a version is not listed.
			for _, name := range []string{"v3.0.0.tar.gz", "3.0.0.zip", "3.0.tar.gz", ".3.0.0.tar.gz.tmp-1", "sub/4.0.0.tar.gz"} {
				if err := s.st.Replace(ctx, "modules/strata/echo/null/"+name, []byte("x")); err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.Versions(ctx, "strata", "echo", "null")
			if err != nil {
				t.Fatalf("Versions() = %v, want nil", err)
			}
			want := []string{"0.1.0", "1.9.0", "1.10.0", "2.0.0-rc.2", "2.0.0-rc.10", "2.0.0"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Versions() mismatch (-want +got):\n%s", diff)
			}
			if got, err := s.Versions(ctx, "Strata", "ECHO", "null"); err != nil || len(got) != len(want) {
				t.Errorf("Versions(mixed case) = %v, %v, want the %d versions", got, err, len(want))
			}
		})
	}
}

func TestVersionsErrors(t *testing.T) {
	ctx := context.Background()
	s := NewStore(storage.NewDir(t.TempDir()))
	if err := s.Add(ctx, "strata", "echo", "null", "1.0.0", bytes.NewReader(mirrortest.Module(t, "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name                 string
		ctx                  context.Context
		namespace, mod, syst string
		want                 error
	}{
		{"unknown module", ctx, "strata", "other", "null", protocol.ErrNotFound},
		{"unknown system", ctx, "strata", "echo", "aws", protocol.ErrNotFound},
		{"bad namespace", ctx, "a/b", "echo", "null", protocol.ErrInvalid},
		{"underscore in system", ctx, "strata", "echo", "n_ull", protocol.ErrInvalid},
		{"cancelled", cancelled, "strata", "echo", "null", context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Versions(tt.ctx, tt.namespace, tt.mod, tt.syst)
			if !errors.Is(err, tt.want) {
				t.Errorf("Versions(%s/%s/%s) = %v, want %v", tt.namespace, tt.mod, tt.syst, err, tt.want)
			}
		})
	}
}
