package mirrortest

import (
	"context"
	"io"
	"testing"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/awsconfig"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// Bucket is the bucket of the tests' S3 storages.
const Bucket = "mirror"

// Storage is a storage the mirror's tests run against.
type Storage struct {
	Name string
	// New returns an empty storage.
	New func(t *testing.T) storage.Storage
}

// Storages are the mirror's two storages: a directory, and Bucket of a
// real S3-compatible server (versitygw), under the prefix strata/mirror.
var Storages = []Storage{
	{"dir", func(t *testing.T) storage.Storage { return storage.NewDir(t.TempDir()) }},
	{"s3", func(t *testing.T) storage.Storage { return S3Storage(t, S3Server(t), Bucket, nil) }},
}

// S3Server starts versitygw, with its credentials in the environment for
// the rest of the test, creates Bucket, and returns its endpoint.
func S3Server(t testing.TB) string {
	t.Helper()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, Bucket)
	return endpoint
}

// S3Config is the configuration of a storage on bucket of the S3 server
// at endpoint, under the prefix strata/mirror.
func S3Config(endpoint, bucket string) storage.S3Config {
	return storage.S3Config{Bucket: bucket, Prefix: "/strata/mirror/", Region: awstest.Region, Endpoint: endpoint, PathStyle: true}
}

// S3Storage returns a storage of S3Config(endpoint, bucket) that sends its
// requests through client, or the SDK's own client when it is nil.
func S3Storage(t testing.TB, endpoint, bucket string, client awsconfig.HTTPClient) storage.Storage {
	t.Helper()
	cfg := S3Config(endpoint, bucket)
	cfg.HTTPClient = client
	st, err := storage.NewS3(context.Background(), cfg)
	if err != nil {
		t.Fatalf("storage.NewS3(%+v) = %v, want nil", cfg, err)
	}
	return st
}

// ReadKey reads the file at key of st.
func ReadKey(t testing.TB, st storage.Storage, key string) []byte {
	t.Helper()
	o, err := st.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("Open(%s) = %v, want the file", key, err)
	}
	defer o.Close()
	data, err := io.ReadAll(o)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return data
}
