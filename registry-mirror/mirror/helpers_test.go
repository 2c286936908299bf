package mirror

import (
	"bytes"
	"context"
	"testing"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/registry-mirror/mirror/mirrortest"
)

const (
	testHost = "registry.opentofu.org"
	testNS   = "strata-iac"
	testType = "strata"
)

// providerZip is a minimal provider package for testType: its executable
// and a license, the body making each version's archive different.
func providerZip(t *testing.T, body string) []byte {
	t.Helper()
	return mirrortest.Zip(t,
		mirrortest.File{Name: "terraform-provider-" + testType + "_v" + body, Mode: 0o755, Body: body},
		mirrortest.File{Name: "LICENSE", Body: "MPL-2.0"},
	)
}

// add stores a minimal package of testType at version for os_arch.
func add(t *testing.T, s *Store, version, os, arch string) {
	t.Helper()
	if err := s.AddProvider(context.Background(), testHost, testNS, testType, version, os, arch,
		bytes.NewReader(providerZip(t, version))); err != nil {
		t.Fatalf("AddProvider(%s %s_%s) = %v, want nil", version, os, arch, err)
	}
}

// testBucket is the bucket of the tests' S3 stores.
const testBucket = "mirror"

// backend is a storage the store's tests run against.
type backend struct {
	name string
	// new returns an empty store.
	new func(t *testing.T) *Store
}

// backends are the store's two storages: a directory, and a bucket of a
// real S3-compatible server (versitygw), under a prefix.
var backends = []backend{
	{"dir", func(t *testing.T) *Store { return NewStore(t.TempDir()) }},
	{"s3", func(t *testing.T) *Store { return s3Store(t) }},
}

// s3Store starts versitygw and returns a store on a new bucket of it,
// under the prefix strata/mirror.
func s3Store(t *testing.T) *Store {
	t.Helper()
	return s3StoreOn(t, s3Server(t), testBucket)
}

// s3Server starts versitygw, with its credentials in the environment for
// the rest of the test, creates testBucket, and returns its endpoint.
func s3Server(t *testing.T) string {
	t.Helper()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, testBucket)
	return endpoint
}

// s3StoreOn returns a store on a bucket of the S3 server at endpoint,
// under the prefix strata/mirror.
func s3StoreOn(t *testing.T, endpoint, bucket string) *Store {
	t.Helper()
	cfg := S3Config{Bucket: bucket, Prefix: "/strata/mirror/", Region: awstest.Region, Endpoint: endpoint, PathStyle: true}
	s, err := NewS3Store(context.Background(), cfg)
	if err != nil {
		t.Fatalf("NewS3Store(%+v) = %v, want nil", cfg, err)
	}
	return s
}
