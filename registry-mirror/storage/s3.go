package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/strata-iac/strata/internal/awsconfig"
)

// S3Config says which bucket, and where in it, a store keeps its files.
type S3Config struct {
	// Bucket holds the mirror; it must exist.
	Bucket string
	// Prefix is prepended to every object name, as a directory: "mirror"
	// keeps registry.opentofu.org/… at mirror/registry.opentofu.org/….
	// Empty means the bucket's top level.
	Prefix string
	// Region is the bucket's region; empty means the standard chain's
	// (AWS_REGION, shared config).
	Region string
	// Endpoint, when set, replaces the S3 endpoint: an S3-compatible
	// service, or a test server.
	Endpoint string
	// PathStyle addresses the bucket in the path (endpoint/bucket/key)
	// rather than the host name, as most S3-compatible services need.
	PathStyle bool
	// HTTPClient, when set, sends the client's requests instead of the
	// SDK's own: a proxy, or a test that records them.
	HTTPClient awsconfig.HTTPClient
}

// NewS3 returns a storage that keeps its files in an S3 bucket, under
// cfg.Prefix, with credentials from the standard AWS chain. Objects are
// written with SSE-S3 (AES256) encryption, and atomically: a new file is
// one conditional PutObject (If-None-Match: *), so a published file is
// never replaced. NewS3 makes no request; [Storage.Check] does.
func NewS3(ctx context.Context, cfg S3Config) (Storage, error) {
	return newS3Storage(ctx, cfg)
}

// s3API is the part of the S3 client the storage uses.
type s3API interface {
	PutObject(ctx context.Context, in *awss3.PutObjectInput, opts ...func(*awss3.Options)) (*awss3.PutObjectOutput, error)
	GetObject(ctx context.Context, in *awss3.GetObjectInput, opts ...func(*awss3.Options)) (*awss3.GetObjectOutput, error)
	HeadObject(ctx context.Context, in *awss3.HeadObjectInput, opts ...func(*awss3.Options)) (*awss3.HeadObjectOutput, error)
	ListObjectsV2(ctx context.Context, in *awss3.ListObjectsV2Input, opts ...func(*awss3.Options)) (*awss3.ListObjectsV2Output, error)
}

// s3Storage keeps files as objects of a bucket, under a prefix.
type s3Storage struct {
	api    s3API
	bucket string
	// prefix is "" or ends with "/".
	prefix string
}

var _ Storage = (*s3Storage)(nil)

// newS3Storage checks cfg and makes the client.
func newS3Storage(ctx context.Context, cfg S3Config) (*s3Storage, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("open s3 mirror store: no bucket")
	}
	prefix, err := s3Prefix(cfg.Prefix)
	if err != nil {
		return nil, fmt.Errorf("open s3 mirror store s3://%s: %w", cfg.Bucket, err)
	}
	client, err := awsconfig.S3(ctx, awsconfig.Config{Region: cfg.Region, Endpoint: cfg.Endpoint, PathStyle: cfg.PathStyle, HTTPClient: cfg.HTTPClient})
	if err != nil {
		return nil, fmt.Errorf("open s3 mirror store s3://%s: %w", cfg.Bucket, err)
	}
	return &s3Storage{api: client, bucket: cfg.Bucket, prefix: prefix}, nil
}

// s3Prefix normalizes a key prefix to "" or "a/b/". No segment may be
// empty, "." or "..", or hold a backslash or NUL.
func s3Prefix(p string) (string, error) {
	p = strings.Trim(p, "/")
	if p == "" {
		return "", nil
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "\\\x00") {
			return "", fmt.Errorf("invalid prefix %q: segment %q", p, seg)
		}
	}
	return p + "/", nil
}

// objectKey is the Object name of a key.
func (s *s3Storage) objectKey(key string) string { return s.prefix + key }

func (s *s3Storage) Location(key string) string {
	return "s3://" + s.bucket + "/" + s.objectKey(key)
}

func (s *s3Storage) Stat(ctx context.Context, key string) (FileInfo, error) {
	out, err := s.api.HeadObject(ctx, &awss3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.objectKey(key))})
	if err != nil {
		return FileInfo{}, s.fail("stat", key, err)
	}
	return FileInfo{Name: path.Base(key), Size: aws.ToInt64(out.ContentLength), ModTime: aws.ToTime(out.LastModified)}, nil
}

func (s *s3Storage) Open(ctx context.Context, key string) (Object, error) {
	out, err := s.api.GetObject(ctx, &awss3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.objectKey(key))})
	if err != nil {
		return nil, s.fail("open", key, err)
	}
	return &s3Object{
		s: s, ctx: ctx, key: key, body: out.Body,
		fi: FileInfo{Name: path.Base(key), Size: aws.ToInt64(out.ContentLength), ModTime: aws.ToTime(out.LastModified)},
	}, nil
}

func (s *s3Storage) List(ctx context.Context, dir string) ([]FileInfo, error) {
	prefix := s.objectKey(dir) + "/"
	pages := awss3.NewListObjectsV2Paginator(s.api, &awss3.ListObjectsV2Input{
		Bucket:    aws.String(s.bucket),
		Prefix:    aws.String(prefix),
		Delimiter: aws.String("/"),
	})
	var out []FileInfo
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, s.fail("list", dir, err)
		}
		for _, o := range page.Contents {
			name := strings.TrimPrefix(aws.ToString(o.Key), prefix)
			if name == "" || strings.Contains(name, "/") {
				continue
			}
			out = append(out, FileInfo{Name: name, Size: aws.ToInt64(o.Size), ModTime: aws.ToTime(o.LastModified)})
		}
	}
	slices.SortFunc(out, func(a, b FileInfo) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// create spools r to a local temporary file, checks it, and puts it with
// If-None-Match: *, which S3 answers with 412 when the key is taken.
func (s *s3Storage) Create(ctx context.Context, key string, r io.Reader, check func(*os.File) error) error {
	tmp, err := os.CreateTemp("", "strata-mirror-upload-*")
	if err != nil {
		return err
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}()
	if err := Spool(ctx, tmp, r); err != nil {
		return err
	}
	if err := check(tmp); err != nil {
		return err
	}
	// S3 answers 409 to a conditional write that races another one on
	// the same key; the next try sees the winner's object.
	for attempt := 1; ; attempt++ {
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err = s.api.PutObject(ctx, s.putInput(key, tmp, true))
		if status(err) == http.StatusConflict && attempt < 5 {
			select {
			case <-ctx.Done():
				return s.fail("create", key, ctx.Err())
			case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
			}
			continue
		}
		if status(err) == http.StatusPreconditionFailed || apiCode(err) == "PreconditionFailed" {
			return &fs.PathError{Op: "create", Path: s.Location(key), Err: fs.ErrExist}
		}
		if err != nil {
			return s.fail("create", key, err)
		}
		return nil
	}
}

func (s *s3Storage) Replace(ctx context.Context, key string, data []byte) error {
	if _, err := s.api.PutObject(ctx, s.putInput(key, bytes.NewReader(data), false)); err != nil {
		return s.fail("write", key, err)
	}
	return nil
}

// putInput is a PutObject of body at key, encrypted with SSE-S3, and only
// if the key is free when ifNew.
func (s *s3Storage) putInput(key string, body io.Reader, ifNew bool) *awss3.PutObjectInput {
	in := &awss3.PutObjectInput{
		Bucket:               aws.String(s.bucket),
		Key:                  aws.String(s.objectKey(key)),
		Body:                 body,
		ServerSideEncryption: types.ServerSideEncryptionAes256,
		ContentType:          aws.String(contentType(key)),
	}
	if ifNew {
		in.IfNoneMatch = aws.String("*")
	}
	return in
}

// contentType is the media type of a stored file, by its name.
func contentType(key string) string {
	switch {
	case strings.HasSuffix(key, ".zip"):
		return "application/zip"
	case strings.HasSuffix(key, ".tar.gz"):
		return "application/gzip"
	case strings.HasSuffix(key, ".hashes"): // a provider archive's hashes
		return "application/json"
	default:
		return "application/octet-stream"
	}
}

// check lists at most one Object under the prefix: it fails when the
// bucket is missing, the endpoint is wrong or the credentials are refused.
func (s *s3Storage) Check(ctx context.Context) error {
	_, err := s.api.ListObjectsV2(ctx, &awss3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket), Prefix: aws.String(s.prefix), MaxKeys: aws.Int32(1),
	})
	if err != nil {
		return s.fail("list", "", err)
	}
	return nil
}

// fail wraps an S3 error with the operation and the Object, and with
// fs.ErrNotExist when it says there is no such object.
func (s *s3Storage) fail(op, key string, err error) error {
	if isNotFound(err) {
		return &fs.PathError{Op: op, Path: s.Location(key), Err: fmt.Errorf("%w: %w", fs.ErrNotExist, err)}
	}
	return &fs.PathError{Op: op, Path: s.Location(key), Err: err}
}

// isNotFound tells whether err says the Object does not exist.
func isNotFound(err error) bool {
	var noKey *types.NoSuchKey
	var notFound *types.NotFound
	if errors.As(err, &noKey) || errors.As(err, &notFound) {
		return true
	}
	code := apiCode(err)
	return code == "NoSuchKey" || code == "NotFound"
}

// apiCode is the S3 error code of err, or "".
func apiCode(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return ""
}

// status is the HTTP status of an S3 error response, or 0.
func status(err error) int {
	var re interface{ HTTPStatusCode() int }
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// s3Object streams an object. It opens with the whole object's body;
// after a seek to another offset (a range request), the next read asks for
// the rest of the Object from there.
type s3Object struct {
	s   *s3Storage
	ctx context.Context
	key string
	fi  FileInfo

	body    io.ReadCloser // nil after a seek away from bodyPos
	bodyPos int64         // the offset body reads next
	pos     int64         // the offset Read reads next
}

func (o *s3Object) Info() FileInfo { return o.fi }

func (o *s3Object) Read(p []byte) (int, error) {
	if o.pos >= o.fi.Size {
		return 0, io.EOF
	}
	if o.body != nil && o.bodyPos != o.pos {
		o.body.Close()
		o.body = nil
	}
	if o.body == nil {
		out, err := o.s.api.GetObject(o.ctx, &awss3.GetObjectInput{
			Bucket: aws.String(o.s.bucket),
			Key:    aws.String(o.s.objectKey(o.key)),
			Range:  aws.String(fmt.Sprintf("bytes=%d-", o.pos)),
		})
		if err != nil {
			return 0, o.s.fail("read", o.key, err)
		}
		o.body, o.bodyPos = out.Body, o.pos
	}
	n, err := o.body.Read(p)
	o.pos += int64(n)
	o.bodyPos = o.pos
	return n, err
}

func (o *s3Object) Seek(offset int64, whence int) (int64, error) {
	var pos int64
	switch whence {
	case io.SeekStart:
		pos = offset
	case io.SeekCurrent:
		pos = o.pos + offset
	case io.SeekEnd:
		pos = o.fi.Size + offset
	default:
		return o.pos, fmt.Errorf("seek %s: whence %d", o.s.Location(o.key), whence)
	}
	if pos < 0 {
		return o.pos, fmt.Errorf("seek %s: negative offset %d", o.s.Location(o.key), pos)
	}
	o.pos = pos
	return pos, nil
}

func (o *s3Object) Close() error {
	if o.body == nil {
		return nil
	}
	err := o.body.Close()
	o.body = nil
	return err
}
