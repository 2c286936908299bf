package local

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/storetest"
)

func TestList(t *testing.T) {
	dir := t.TempDir()
	s := New(dir)
	ctx := context.Background()
	for _, key := range []string{
		"/configuration/network", "/configuration/db", "/configuration/acme/api",
		"/configurations/other", "/configuration",
	} {
		if err := s.Put(ctx, key, document(t, "x")); err != nil {
			t.Fatalf("Put(%q) = %v", key, err)
		}
	}
	// Things that are not documents: a leftover temporary file, a stray
	// file without the extension.
	for _, name := range []string{".network.json.tmp-123", "README"} {
		if err := os.WriteFile(filepath.Join(dir, "configuration", name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	storetest.ListPrefixes(t, s, []string{"/configuration/network", "/configuration/db", "/configuration/acme/api"}, "/configuration/network")
}

func TestListEmptyStore(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "never-written"))
	got, err := s.List(context.Background(), "/configuration")
	if err != nil || len(got) != 0 {
		t.Errorf("List(%q) on an empty store = %v, %v, want nothing", "/configuration", got, err)
	}
}

func TestListErrors(t *testing.T) {
	s := New(t.TempDir())
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		prefix string
		want   string
	}{
		{"dot dot", context.Background(), "/configuration/../..", `segment ".." is not allowed`},
		{"empty segment", context.Background(), "/a//b", "empty segment"},
		{"cancelled", cancelled, "/configuration", "list contracts /configuration: context canceled"},
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
