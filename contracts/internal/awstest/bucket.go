package awstest

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// CreateBucket creates a bucket on the S3 server at endpoint (path style,
// Region), with the credentials Env set.
func CreateBucket(t testing.TB, endpoint, bucket string) {
	t.Helper()
	ctx := context.Background()
	client := s3Client(t, endpoint)
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
		t.Fatalf("CreateBucket(%q) on %s = %v", bucket, endpoint, err)
	}
}

// s3Client returns a path-style client for the S3 server at endpoint,
// with the credentials Env set.
func s3Client(t testing.TB, endpoint string) *s3.Client {
	t.Helper()
	cfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion(Region))
	if err != nil {
		t.Fatalf("load AWS config: %v", err)
	}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		o.UsePathStyle = true
	})
}
