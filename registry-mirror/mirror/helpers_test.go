package mirror

import (
	"bytes"
	"context"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
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
	if err := s.Providers.Add(context.Background(), testHost, testNS, testType, version, os, arch,
		bytes.NewReader(mirrortest.ProviderZip(t, version))); err != nil {
		t.Fatalf("AddProvider(%s %s_%s) = %v, want nil", version, os, arch, err)
	}
}

// testBucket is the bucket of the tests' S3 stores.
const testBucket = mirrortest.Bucket

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
		out = append(out, backend{st.Name, func(t *testing.T) *Store { return newStore(st.New(t), "") }})
	}
	return out
}()

// s3Store starts versitygw and returns a store on a new bucket of it,
// under the prefix strata/mirror.
func s3Store(t *testing.T) *Store {
	t.Helper()
	return s3StoreOn(t, mirrortest.S3Server(t), testBucket)
}

// s3Server starts versitygw and returns its endpoint (mirrortest.S3Server).
func s3Server(t *testing.T) string { return mirrortest.S3Server(t) }

// s3StoreOn returns a store on a bucket of the S3 server at endpoint,
// under the prefix strata/mirror.
func s3StoreOn(t *testing.T, endpoint, bucket string) *Store {
	t.Helper()
	return newStore(mirrortest.S3Storage(t, endpoint, bucket, nil), "")
}

// s3StoreWith is s3StoreOn with its S3 requests sent through client.
func s3StoreWith(t *testing.T, endpoint, bucket string, client *s3Recorder) *Store {
	t.Helper()
	return newStore(mirrortest.S3Storage(t, endpoint, bucket, client), "")
}
