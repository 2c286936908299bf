package s3records

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/strata-iac/strata/internal/awsconfig"
	"github.com/strata-iac/strata/orchestrator/records"
)

// api is the part of the S3 client the store uses.
type api interface {
	PutObject(ctx context.Context, in *awss3.PutObjectInput, opts ...func(*awss3.Options)) (*awss3.PutObjectOutput, error)
	GetObject(ctx context.Context, in *awss3.GetObjectInput, opts ...func(*awss3.Options)) (*awss3.GetObjectOutput, error)
	DeleteObject(ctx context.Context, in *awss3.DeleteObjectInput, opts ...func(*awss3.Options)) (*awss3.DeleteObjectOutput, error)
	ListObjectsV2(ctx context.Context, in *awss3.ListObjectsV2Input, opts ...func(*awss3.Options)) (*awss3.ListObjectsV2Output, error)
}

// objects are the records' objects in a bucket, under a prefix
// (records.Objects). An object's version is its ETag.
type objects struct {
	api    api
	bucket string
	prefix string
}

// Location is where the records are: s3://bucket/prefix.
func (o *objects) Location() string { return "s3://" + o.bucket + "/" + o.prefix }

// Name is the object's s3:// URL.
func (o *objects) Name(k records.Key) string { return "s3://" + o.bucket + "/" + o.key(k) }

// PartBytes is 0: an object takes any size, so each file of a held plan
// is an object of its own.
func (o *objects) PartBytes() int { return 0 }

// Read reads an object and its ETag.
func (o *objects) Read(ctx context.Context, k records.Key) ([]byte, string, error) {
	obj, ok, err := awsconfig.GetObject(ctx, o.api, o.bucket, o.key(k))
	if err == nil && !ok {
		err = records.ErrNotFound
	}
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", o.Name(k), err)
	}
	return obj.Data, obj.ETag, nil
}

// Create writes an object only if there is none (If-None-Match: *).
func (o *objects) Create(ctx context.Context, k records.Key, data []byte) error {
	return o.put(ctx, k, data, func(in *awss3.PutObjectInput) { in.IfNoneMatch = aws.String("*") })
}

// Write writes an object over the ETag it must still have (If-Match), or
// whatever is there (records.Any).
func (o *objects) Write(ctx context.Context, k records.Key, data []byte, version string) error {
	if version == records.Any {
		return o.put(ctx, k, data, nil)
	}
	return o.put(ctx, k, data, func(in *awss3.PutObjectInput) { in.IfMatch = aws.String(version) })
}

// put writes an object, encrypted at rest (SSE-S3), on the condition cond
// sets, if any. A condition that does not hold, or an If-Match object
// that is gone, is records.ErrChanged.
func (o *objects) put(ctx context.Context, k records.Key, data []byte, cond func(*awss3.PutObjectInput)) error {
	in := &awss3.PutObjectInput{
		Bucket: aws.String(o.bucket), Key: aws.String(o.key(k)), Body: bytes.NewReader(data),
		ServerSideEncryption: types.ServerSideEncryptionAes256,
	}
	if cond != nil {
		cond(in)
	}
	_, err := o.api.PutObject(ctx, in)
	if cond != nil && (conflict(err) || awsconfig.NotFound(err)) {
		err = records.ErrChanged
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", o.Name(k), err)
	}
	return nil
}

// Delete deletes an object; one already gone is no error.
func (o *objects) Delete(ctx context.Context, k records.Key) error {
	_, err := o.api.DeleteObject(ctx, &awss3.DeleteObjectInput{Bucket: aws.String(o.bucket), Key: aws.String(o.key(k))})
	if err != nil && !awsconfig.NotFound(err) {
		return fmt.Errorf("delete %s: %w", o.Name(k), err)
	}
	return nil
}

// List lists the objects under the prefix of the key's level and reads
// their keys back from their names; the engine reads the objects.
func (o *objects) List(ctx context.Context, prefix records.Key) ([]records.Entry, error) {
	p, err := o.listPrefix(prefix)
	if err != nil {
		return nil, err
	}
	names, err := o.list(ctx, p)
	if err != nil {
		return nil, err
	}
	var out []records.Entry
	for _, name := range names {
		if k, ok := parseKey(prefix, strings.TrimPrefix(name, p)); ok {
			out = append(out, records.Entry{Key: k})
		}
	}
	return out, nil
}

// list returns the names of the objects under prefix.
func (o *objects) list(ctx context.Context, prefix string) ([]string, error) {
	in := &awss3.ListObjectsV2Input{Bucket: aws.String(o.bucket), Prefix: aws.String(prefix)}
	var names []string
	pages := awss3.NewListObjectsV2Paginator(o.api, in)
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list s3://%s/%s: %w", o.bucket, prefix, err)
		}
		for _, obj := range page.Contents {
			names = append(names, aws.ToString(obj.Key))
		}
	}
	return names, nil
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
