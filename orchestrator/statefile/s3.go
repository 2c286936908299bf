package statefile

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// s3API is the part of the S3 client the reader uses.
type s3API interface {
	GetObject(ctx context.Context, in *awss3.GetObjectInput, opts ...func(*awss3.Options)) (*awss3.GetObjectOutput, error)
}

// S3 reads state objects from one bucket.
type S3 struct {
	api    s3API
	bucket string
}

// NewS3 returns a reader of the bucket, with credentials from the
// standard AWS chain; endpoint, when set, is an S3-compatible service
// addressed by path. It makes no request.
func NewS3(ctx context.Context, bucket, region, endpoint string) (*S3, error) {
	var opts []func(*config.LoadOptions) error
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("open state bucket %s: %w", bucket, err)
	}
	client := awss3.NewFromConfig(cfg, func(o *awss3.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
			o.UsePathStyle = true
		}
	})
	return &S3{api: client, bucket: bucket}, nil
}

// Read reads the version of the state object at key. It reports false
// when there is no such object.
func (s *S3) Read(ctx context.Context, key string) (Version, bool, error) {
	out, err := s.api.GetObject(ctx, &awss3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if notFound(err) {
		return Version{}, false, nil
	}
	if err != nil {
		return Version{}, false, fmt.Errorf("read state s3://%s/%s: %w", s.bucket, key, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return Version{}, false, fmt.Errorf("read state s3://%s/%s: %w", s.bucket, key, err)
	}
	v, err := Parse(data)
	if err != nil {
		return Version{}, false, fmt.Errorf("read state s3://%s/%s: %w", s.bucket, key, err)
	}
	return v, true, nil
}

func notFound(err error) bool {
	var noKey *types.NoSuchKey
	if errors.As(err, &noKey) {
		return true
	}
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode() == "NoSuchKey" || apiErr.ErrorCode() == "NotFound")
}

// ReadLock reads the lock of the S3 state at key: its .tflock object, as
// tofu's native S3 locking (use_lockfile) writes it. It reports false when
// there is none.
func (s *S3) ReadLock(ctx context.Context, key string) (Lock, bool, error) {
	object := key + ".tflock"
	out, err := s.api.GetObject(ctx, &awss3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(object)})
	if notFound(err) {
		return Lock{}, false, nil
	}
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock s3://%s/%s: %w", s.bucket, object, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock s3://%s/%s: %w", s.bucket, object, err)
	}
	l, err := ParseLock(data)
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock s3://%s/%s: %w", s.bucket, object, err)
	}
	l.Held = true
	return l, true, nil
}
