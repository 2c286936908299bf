package statefile

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/internal/awsconfig"
)

// s3API is the part of the S3 client the reader uses.
type s3API = awsconfig.S3Getter

// S3 reads state objects from one bucket.
type S3 struct {
	api    s3API
	bucket string
}

// NewS3 returns a reader of the bucket, with credentials from the
// standard AWS chain; endpoint, when set, is an S3-compatible service
// addressed by path. It makes no request.
func NewS3(ctx context.Context, bucket, region, endpoint string) (*S3, error) {
	client, err := awsconfig.S3(ctx, awsconfig.Config{Region: region, Endpoint: endpoint, PathStyle: endpoint != ""})
	if err != nil {
		return nil, fmt.Errorf("open state bucket %s: %w", bucket, err)
	}
	return &S3{api: client, bucket: bucket}, nil
}

// Read reads the version of the state object at key. It reports false
// when there is no such object.
func (s *S3) Read(ctx context.Context, key string) (Version, bool, error) {
	obj, ok, err := awsconfig.GetObject(ctx, s.api, s.bucket, key)
	if err != nil {
		return Version{}, false, fmt.Errorf("read state s3://%s/%s: %w", s.bucket, key, err)
	}
	if !ok {
		return Version{}, false, nil
	}
	v, err := Parse(obj.Data)
	if err != nil {
		return Version{}, false, fmt.Errorf("read state s3://%s/%s: %w", s.bucket, key, err)
	}
	return v, true, nil
}

// ReadLock reads the lock of the S3 state at key: its .tflock object, as
// tofu's native S3 locking (use_lockfile) writes it. It reports false when
// there is none.
func (s *S3) ReadLock(ctx context.Context, key string) (Lock, bool, error) {
	object := key + ".tflock"
	obj, ok, err := awsconfig.GetObject(ctx, s.api, s.bucket, object)
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock s3://%s/%s: %w", s.bucket, object, err)
	}
	if !ok {
		return Lock{}, false, nil
	}
	l, err := ParseLock(obj.Data)
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock s3://%s/%s: %w", s.bucket, object, err)
	}
	l.Held = true
	return l, true, nil
}
