package providers

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// The address of the provider the tests add.
const (
	testHost = mirrortest.ProviderHostname
	testNS   = mirrortest.ProviderNamespace
	testType = mirrortest.ProviderType
)

// add stores a minimal package of testType at version for os_arch.
func add(t *testing.T, s *Store, version, os, arch string) {
	t.Helper()
	if err := s.Add(context.Background(), testHost, testNS, testType, version, os, arch,
		bytes.NewReader(mirrortest.ProviderZip(t, version))); err != nil {
		t.Fatalf("Add(%s %s_%s) = %v, want nil", version, os, arch, err)
	}
}

// newDirStore is a store in a new directory, returned with it.
func newDirStore(t *testing.T) (*Store, string) {
	dir := t.TempDir()
	return NewStore(storage.NewDir(dir)), dir
}

// backend is a storage the store's tests run against.
type backend struct {
	name string
	// new returns an empty store.
	new func(t *testing.T) *Store
}

// backends are the store's two storages, mirrortest.Storages.
var backends = func() []backend {
	var out []backend
	for _, st := range mirrortest.Storages {
		out = append(out, backend{st.Name, func(t *testing.T) *Store { return NewStore(st.New(t)) }})
	}
	return out
}()

// testSigningKey is a new signing key.
func testSigningKey(t *testing.T) *SigningKey {
	t.Helper()
	k, err := GenerateSigningKey("strata test registry")
	if err != nil {
		t.Fatalf("GenerateSigningKey() = %v, want nil", err)
	}
	return k
}

// testServer serves the store's providers as a mirror server does: the
// server's routes, and a service discovery document naming its services.
func testServer(s *Store, opts Options) http.Handler {
	srv := NewServer(s, opts)
	mux := http.NewServeMux()
	srv.Register(mux)
	services := map[string]string{}
	maps.Copy(services, srv.Services())
	mux.HandleFunc("GET "+protocol.DiscoveryPath, func(w http.ResponseWriter, r *http.Request) {
		protocol.WriteJSON(w, services)
	})
	return mux
}
