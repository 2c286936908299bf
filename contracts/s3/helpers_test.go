package s3

import (
	"context"
	"testing"

	"github.com/strata-iac/strata/contracts/storetest"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/awstest"
)

const bucket = "contracts"

// newStore starts versitygw, creates the bucket and returns a store on it,
// with the SDK client the store uses, for looking behind its back.
func newStore(t *testing.T, cfg Config) (*Store, *awss3.Client) {
	t.Helper()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	cfg.Endpoint, cfg.PathStyle = endpoint, true
	if cfg.Bucket == "" {
		cfg.Bucket = bucket
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New(%+v) = %v, want nil", cfg, err)
	}
	client := s.api.(*awss3.Client)
	if cfg.Bucket == bucket {
		if _, err := client.CreateBucket(context.Background(), &awss3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
			t.Fatalf("CreateBucket(%q) = %v", bucket, err)
		}
	}
	return s, client
}

// document builds a document for the stack with public and private data.
func document(t *testing.T, stack string) contracts.Document {
	return storetest.Document(t, stack)
}
