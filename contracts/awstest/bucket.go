package awstest

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/strata-iac/strata/internal/awsconfig"
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
	client, err := awsconfig.S3(context.Background(), awsconfig.Config{Region: Region, Endpoint: endpoint, PathStyle: true})
	if err != nil {
		t.Fatalf("make an S3 client for %s: %v", endpoint, err)
	}
	return client
}

// ObjectExists reports whether the bucket on the S3 server at endpoint
// holds an object at key.
func ObjectExists(t testing.TB, endpoint, bucket, key string) bool {
	t.Helper()
	_, err := s3Client(t, endpoint).HeadObject(context.Background(), &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	return err == nil
}

// PutObject writes an object to the bucket on the S3 server at endpoint.
func PutObject(t testing.TB, endpoint, bucket, key, body string) {
	t.Helper()
	_, err := s3Client(t, endpoint).PutObject(context.Background(), &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(key), Body: strings.NewReader(body),
	})
	if err != nil {
		t.Fatalf("PutObject(%q) = %v", key, err)
	}
}

// DeleteObject removes an object from the bucket on the S3 server at
// endpoint.
func DeleteObject(t testing.TB, endpoint, bucket, key string) {
	t.Helper()
	if _, err := s3Client(t, endpoint).DeleteObject(context.Background(), &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)}); err != nil {
		t.Fatalf("DeleteObject(%q) = %v", key, err)
	}
}
