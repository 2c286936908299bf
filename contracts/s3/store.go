package s3

import (
	"context"
	"errors"
	"fmt"
	"strings"

	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/internal/awsconfig"
)

// ext ends the object name of every document.
const ext = ".json"

// Config says which bucket the store keeps documents in.
type Config struct {
	// Bucket holds the documents; it must exist.
	Bucket string
	// Region is the bucket's region; empty means the standard chain's
	// (AWS_REGION, shared config).
	Region string
	// Endpoint, when set, replaces the S3 endpoint: a test server or an
	// S3-compatible service.
	Endpoint string
	// PathStyle addresses the bucket in the path (endpoint/bucket/key)
	// rather than the host name, as most S3-compatible services need.
	PathStyle bool
	// KMSKeyID, when set, encrypts objects with SSE-KMS under that key;
	// otherwise they are encrypted with SSE-S3 (AES256).
	KMSKeyID string
}

// api is the part of the S3 client the store uses.
type api interface {
	PutObject(ctx context.Context, in *awss3.PutObjectInput, opts ...func(*awss3.Options)) (*awss3.PutObjectOutput, error)
	GetObject(ctx context.Context, in *awss3.GetObjectInput, opts ...func(*awss3.Options)) (*awss3.GetObjectOutput, error)
	ListObjectsV2(ctx context.Context, in *awss3.ListObjectsV2Input, opts ...func(*awss3.Options)) (*awss3.ListObjectsV2Output, error)
}

// Store keeps contract documents as objects in a bucket.
type Store struct {
	api      api
	bucket   string
	kmsKeyID string
}

var _ contracts.Store = (*Store)(nil)

// New returns a store for the bucket of cfg, with credentials from the
// standard AWS chain. It makes no request: a missing bucket, a wrong
// endpoint or missing credentials show on the first Get, Put or List.
func New(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("open s3 contract store: no bucket")
	}
	client, err := awsconfig.S3(ctx, awsconfig.Config{Region: cfg.Region, Endpoint: cfg.Endpoint, PathStyle: cfg.PathStyle})
	if err != nil {
		return nil, fmt.Errorf("open s3 contract store %s: %w", cfg.Bucket, err)
	}
	return &Store{api: client, bucket: cfg.Bucket, kmsKeyID: cfg.KMSKeyID}, nil
}

// ObjectKey returns the object that holds the document at key:
// ObjectKey("/configuration/foo") is "configuration/foo.json". The key is
// checked as Put, Get and List check it.
func ObjectKey(key string) (string, error) {
	if err := checkKey(key, false); err != nil {
		return "", err
	}
	return key[1:] + ext, nil
}

// objectPrefix returns the object-name prefix of everything under a key
// prefix: "configuration/" for "/configuration", "" for "/" or "".
func objectPrefix(prefix string) (string, error) {
	p := "/" + strings.Trim(prefix, "/")
	if err := checkKey(p, true); err != nil {
		return "", err
	}
	if p == "/" {
		return "", nil
	}
	return p[1:] + "/", nil
}

// keyOf is the inverse of ObjectKey; it is false for objects that hold no
// document.
func keyOf(object string) (string, bool) {
	name, ok := strings.CutSuffix(object, ext)
	if !ok || name == "" {
		return "", false
	}
	key := "/" + name
	if checkKey(key, false) != nil {
		return "", false
	}
	return key, true
}

// checkKey checks a key or, when prefix is true, a key prefix: it must
// start with "/", and no segment may be empty, "." or "..", or hold a
// backslash or NUL. A prefix may be "/" alone; a key may not.
func checkKey(key string, prefix bool) error {
	if !strings.HasPrefix(key, "/") {
		return fmt.Errorf("invalid contract key %q: it must start with \"/\"", key)
	}
	if key == "/" {
		if prefix {
			return nil
		}
		return fmt.Errorf("invalid contract key %q: it names no document", key)
	}
	for _, seg := range strings.Split(key[1:], "/") {
		switch {
		case seg == "":
			return fmt.Errorf("invalid contract key %q: empty segment", key)
		case seg == "." || seg == "..":
			return fmt.Errorf("invalid contract key %q: segment %q is not allowed", key, seg)
		case strings.ContainsAny(seg, "\\\x00"):
			return fmt.Errorf("invalid contract key %q: segment %q holds a backslash or NUL", key, seg)
		}
	}
	return nil
}
