package s3records

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/strata-iac/strata/contracts/awstest"
)

// bucket is the test bucket every store keeps its records in.
const bucket = "records"

// server is a versitygw server with the test bucket.
type server struct{ endpoint string }

// newServer starts versitygw and creates the bucket.
func newServer(t *testing.T) server {
	t.Helper()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	s := server{endpoint: endpoint}
	st := s.open(t, "", 0)
	if _, err := st.objects.api.(*awss3.Client).CreateBucket(context.Background(), &awss3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
		t.Fatalf("CreateBucket(%q) = %v", bucket, err)
	}
	return s
}

// open returns a Store of the bucket's prefix, as a process of its own:
// another replica, another machine, or the one that comes after a process
// was killed.
func (s server) open(t *testing.T, prefix string, keep int) *Store {
	t.Helper()
	st, err := New(context.Background(), Config{Bucket: bucket, Prefix: prefix, Endpoint: s.endpoint, PathStyle: true, Keep: keep, Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("New(%s) = %v", prefix, err)
	}
	return st
}
