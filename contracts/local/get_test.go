package local

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

func TestGetRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := New(t.TempDir())
	tests := []struct {
		key string
		doc contracts.Document
	}{
		{"/configuration/network", document(t, "network")},
		{"/configuration/empty", contracts.Document{Installed: true, Stack: "empty", Public: map[string]any{}, Private: map[string]any{}}},
		{"/other/prefix/db", document(t, "db")},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			if err := s.Put(ctx, tt.key, tt.doc); err != nil {
				t.Fatalf("Put(%q) = %v, want nil", tt.key, err)
			}
			got, err := s.Get(ctx, tt.key)
			if err != nil {
				t.Fatalf("Get(%q) = %v, want nil", tt.key, err)
			}
			if diff := cmp.Diff(tt.doc, got); diff != "" {
				t.Errorf("Get(%q) mismatch (-want +got):\n%s", tt.key, diff)
			}
		})
	}
}

func TestGetNotFound(t *testing.T) {
	s := New(t.TempDir())
	if err := s.Put(context.Background(), "/configuration/network", document(t, "network")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"/configuration/missing", "/configuration", "/nothing/here"} {
		t.Run(key, func(t *testing.T) {
			_, err := s.Get(context.Background(), key)
			if !errors.Is(err, contracts.ErrNotFound) {
				t.Errorf("Get(%q) = %v, want an error wrapping ErrNotFound", key, err)
			}
		})
	}
}

func TestGetErrors(t *testing.T) {
	dir := t.TempDir()
	s := New(dir)
	if err := os.MkdirAll(filepath.Join(dir, "configuration"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "configuration", "broken.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		key  string
		want string
	}{
		{"bad key", context.Background(), "../x", `get contract: invalid contract key "../x"`},
		{"broken file", context.Background(), "/configuration/broken", "get contract /configuration/broken: decode"},
		{"cancelled", cancelled, "/configuration/network", "get contract /configuration/network: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Get(tt.ctx, tt.key)
			if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, contracts.ErrNotFound) {
				t.Errorf("Get(%q) = %v, want an error containing %q that is not ErrNotFound", tt.key, err, tt.want)
			}
		})
	}
}

func TestGetNullMaps(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.json"), []byte(`{"installed":true,"stack":"x","public":null}`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := New(dir).Get(context.Background(), "/x")
	if err != nil {
		t.Fatal(err)
	}
	if got.Public == nil || got.Private == nil {
		t.Errorf("Get(%q) = %+v, want empty, not nil, maps", "/x", got)
	}
}
