package s3records

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/strata-iac/strata/internal/awsconfig"
)

// DefaultKeep is how many runs of each stack are kept when Config.Keep is
// zero.
const DefaultKeep = 100

// Config says which bucket and prefix keep the records.
type Config struct {
	// Bucket keeps the records; it must exist.
	Bucket string
	// Prefix starts every object's name ("" for the bucket's root);
	// several installations can share a bucket under prefixes of their
	// own.
	Prefix string
	// Region is the bucket's region; empty, the standard chain's
	// (AWS_REGION, shared config).
	Region string
	// Endpoint, when set, replaces the S3 endpoint: an S3-compatible
	// service, addressed in the path when PathStyle.
	Endpoint  string
	PathStyle bool
	// Keep is how many runs of each stack are kept (DefaultKeep when
	// zero); the newest good apply is kept beyond them.
	Keep int
	// Dir is a local directory where held plans are written out for tofu
	// and people to read (Held.Dir). Hold and HeldPlan need it; without
	// it, HeldPlans lists plans without their files.
	Dir string
}

// api is the part of the S3 client the store uses.
type api interface {
	PutObject(ctx context.Context, in *awss3.PutObjectInput, opts ...func(*awss3.Options)) (*awss3.PutObjectOutput, error)
	GetObject(ctx context.Context, in *awss3.GetObjectInput, opts ...func(*awss3.Options)) (*awss3.GetObjectOutput, error)
	DeleteObject(ctx context.Context, in *awss3.DeleteObjectInput, opts ...func(*awss3.Options)) (*awss3.DeleteObjectOutput, error)
	ListObjectsV2(ctx context.Context, in *awss3.ListObjectsV2Input, opts ...func(*awss3.Options)) (*awss3.ListObjectsV2Output, error)
}

// Store keeps history, held plans and approvals as objects in a bucket,
// under a prefix. It is safe for any number of goroutines and of
// processes.
type Store struct {
	api    api
	bucket string
	prefix string
	keep   int
	dir    string
}

// New returns a Store for the bucket and prefix of cfg, with credentials
// from the standard AWS chain. It makes no request: a missing bucket, a
// wrong endpoint or missing credentials show on the first read or write.
func New(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("s3 records: no bucket")
	}
	if cfg.Keep < 0 {
		return nil, fmt.Errorf("s3 records: keep is %d: keep at least 1 run per stack", cfg.Keep)
	}
	if cfg.Keep == 0 {
		cfg.Keep = DefaultKeep
	}
	client, err := awsconfig.S3(ctx, awsconfig.Config{Region: cfg.Region, Endpoint: cfg.Endpoint, PathStyle: cfg.PathStyle})
	if err != nil {
		return nil, fmt.Errorf("s3 records s3://%s/%s: %w", cfg.Bucket, cfg.Prefix, err)
	}
	return &Store{api: client, bucket: cfg.Bucket, prefix: cleanPrefix(cfg.Prefix), keep: cfg.Keep, dir: cfg.Dir}, nil
}

// Location is where the records are: s3://bucket/prefix.
func (s *Store) Location() string { return "s3://" + s.bucket + "/" + s.prefix }

// Close releases nothing: the records outlive the process.
func (s *Store) Close() error { return nil }

// errChanged is a conditional write that found the object changed (or
// created) since it was read: the writer reads it again.
var errChanged = errors.New("changed by another writer")

// object is an object read, with the ETag that conditional writes name.
type object struct {
	data []byte
	etag string
}

// get reads an object; false when there is none.
func (s *Store) get(ctx context.Context, key string) (object, bool, error) {
	out, err := s.api.GetObject(ctx, &awss3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if notFound(err) {
		return object{}, false, nil
	}
	if err != nil {
		return object{}, false, fmt.Errorf("read s3://%s/%s: %w", s.bucket, key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		return object{}, false, fmt.Errorf("read s3://%s/%s: %w", s.bucket, key, err)
	}
	return object{data: b, etag: aws.ToString(out.ETag)}, true, nil
}

// Conditions of a put.
const (
	// anyway writes whatever is there.
	anyway = ""
	// absent writes only when there is no object (If-None-Match: *).
	absent = "*"
)

// put writes an object, encrypted at rest (SSE-S3), on a condition: anyway,
// absent, or the ETag the object must still have (If-Match). A condition
// that does not hold, or an If-Match object that is gone, is errChanged.
func (s *Store) put(ctx context.Context, key string, data []byte, cond string) error {
	in := &awss3.PutObjectInput{
		Bucket: aws.String(s.bucket), Key: aws.String(key), Body: bytes.NewReader(data),
		ServerSideEncryption: types.ServerSideEncryptionAes256,
	}
	switch cond {
	case anyway:
	case absent:
		in.IfNoneMatch = aws.String(absent)
	default:
		in.IfMatch = aws.String(cond)
	}
	_, err := s.api.PutObject(ctx, in)
	if cond != anyway && (conflict(err) || notFound(err)) {
		return errChanged
	}
	if err != nil {
		return fmt.Errorf("write s3://%s/%s: %w", s.bucket, key, err)
	}
	return nil
}

// del deletes an object; one already gone is no error.
func (s *Store) del(ctx context.Context, key string) error {
	_, err := s.api.DeleteObject(ctx, &awss3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if err != nil && !notFound(err) {
		return fmt.Errorf("delete s3://%s/%s: %w", s.bucket, key, err)
	}
	return nil
}

// list returns the names of the objects under prefix, sorted, and the
// prefixes one level down (up to the next "/").
func (s *Store) list(ctx context.Context, prefix string, delimit bool) (keys, dirs []string, err error) {
	in := &awss3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(prefix)}
	if delimit {
		in.Delimiter = aws.String("/")
	}
	pages := awss3.NewListObjectsV2Paginator(s.api, in)
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("list s3://%s/%s: %w", s.bucket, prefix, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
		for _, p := range page.CommonPrefixes {
			dirs = append(dirs, aws.ToString(p.Prefix))
		}
	}
	return keys, dirs, nil
}

// notFound reports whether err is a missing object.
func notFound(err error) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.ErrorCode() {
	case "NoSuchKey", "NotFound":
		return true
	}
	return false
}

// conflict reports whether err is a write whose condition did not hold:
// 412 PreconditionFailed, or 409 ConditionalRequestConflict when two
// conditional writes of one object crossed.
func conflict(err error) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.ErrorCode() {
	case "PreconditionFailed", "ConditionalRequestConflict":
		return true
	}
	return false
}
