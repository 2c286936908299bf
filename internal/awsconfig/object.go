package awsconfig

import (
	"context"
	"errors"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3Getter is the part of an S3 client that GetObject reads with.
type S3Getter interface {
	GetObject(ctx context.Context, in *s3.GetObjectInput, opts ...func(*s3.Options)) (*s3.GetObjectOutput, error)
}

// Object is an S3 object read whole, with the ETag a conditional write
// names.
type Object struct {
	Data []byte
	ETag string
}

// GetObject reads the object at key in bucket whole; false when there is
// none (NotFound). A missing bucket is an error. Errors are the client's
// and the body's, for the caller to wrap with what it read.
func GetObject(ctx context.Context, api S3Getter, bucket, key string) (Object, bool, error) {
	out, err := api.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if NotFound(err) {
		return Object{}, false, nil
	}
	if err != nil {
		return Object{}, false, err
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return Object{}, false, err
	}
	return Object{Data: data, ETag: aws.ToString(out.ETag)}, true, nil
}

// NotFound reports whether err says an S3 object does not exist: a
// missing key (NoSuchKey), or NotFound, as a HEAD, a delete or an
// S3-compatible service reports it. A missing bucket (NoSuchBucket) is
// not.
func NotFound(err error) bool {
	var noKey *types.NoSuchKey
	var notFound *types.NotFound
	if errors.As(err, &noKey) || errors.As(err, &notFound) {
		return true
	}
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode() == "NoSuchKey" || apiErr.ErrorCode() == "NotFound")
}
