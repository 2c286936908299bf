package local

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

func TestPutFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "contracts")
	s := New(dir)
	d := document(t, "network")
	if err := s.Put(context.Background(), "/configuration/network", d); err != nil {
		t.Fatalf("Put() = %v, want nil", err)
	}
	path := filepath.Join(dir, "configuration", "network.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("ReadFile(%q) = %v, want the document", path, err)
	}
	if !strings.HasPrefix(string(data), "{\n  \"installed\": true,\n") || !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("ReadFile(%q) = %s, want indented JSON ending in a newline", path, data)
	}
	var got contracts.Document
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("json.Unmarshal(%s) = %v", path, err)
	}
	if diff := cmp.Diff(d, got); diff != "" {
		t.Errorf("file %s mismatch (-want +got):\n%s", path, diff)
	}

	perms := []struct {
		path string
		want os.FileMode
	}{
		{path, 0o600},
		{filepath.Join(dir, "configuration"), 0o700},
		{dir, 0o700},
	}
	for _, p := range perms {
		info, err := os.Stat(p.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != p.want {
			t.Errorf("Stat(%q) perm = %v, want %v", p.path, got, p.want)
		}
	}
}

func TestPutOverwritesAndLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	s := New(dir)
	ctx := context.Background()
	key := "/configuration/network"
	first := document(t, "network")
	second := document(t, "network")
	second.Version = "0.2.0"
	for _, d := range []contracts.Document{first, second} {
		if err := s.Put(ctx, key, d); err != nil {
			t.Fatalf("Put(%q) = %v, want nil", key, err)
		}
	}
	got, err := s.Get(ctx, key)
	if err != nil || got.Version != "0.2.0" {
		t.Errorf("Get(%q) = %v, %v, want version 0.2.0", key, got.Version, err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "configuration"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"network.json"}; !cmp.Equal(want, names) {
		t.Errorf("ReadDir() = %v, want %v", names, want)
	}
}

func TestPutErrors(t *testing.T) {
	dir := t.TempDir()
	// A file where a directory should go.
	if err := os.WriteFile(filepath.Join(dir, "blocked"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s := New(dir)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	unencodable := document(t, "x")
	unencodable.Public["f"] = func() {}
	tests := []struct {
		name string
		ctx  context.Context
		key  string
		doc  contracts.Document
		want string
	}{
		{"bad key", context.Background(), "/configuration/../x", document(t, "x"), `put contract: invalid contract key "/configuration/../x"`},
		{"no leading slash", context.Background(), "configuration/x", document(t, "x"), `it must start with "/"`},
		{"cancelled", cancelled, "/configuration/x", document(t, "x"), "put contract /configuration/x: context canceled"},
		{"directory is a file", context.Background(), "/blocked/x", document(t, "x"), "put contract /blocked/x: "},
		{"unencodable", context.Background(), "/configuration/x", unencodable, "put contract /configuration/x: encode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Put(tt.ctx, tt.key, tt.doc)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Put(%q) = %v, want an error containing %q", tt.key, err, tt.want)
			}
		})
	}
}

func TestPutReadersNeverSeeHalfADocument(t *testing.T) {
	s := New(t.TempDir())
	ctx := context.Background()
	key := "/configuration/big"
	big := document(t, "big")
	big.Public["blob"] = strings.Repeat("x", 1<<20)
	small := document(t, "big")
	if err := s.Put(ctx, key, small); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 20 {
			d := small
			if i%2 == 0 {
				d = big
			}
			if err := s.Put(ctx, key, d); err != nil {
				t.Errorf("Put(%q) = %v, want nil", key, err)
				return
			}
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
		}
		if _, err := s.Get(ctx, key); err != nil {
			t.Fatalf("Get(%q) during writes = %v, want a whole document", key, err)
		}
	}
}
