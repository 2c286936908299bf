package bucket

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/fluxcd/pkg/sourceignore"
	"github.com/fluxcd/pkg/sourceignore/gitignore"

	internalaws "github.com/strata-iac/strata/internal/awsconfig"
)

// The providers strata fetches from.
const (
	ProviderGeneric = "generic"
	ProviderAWS     = "aws"
)

// defaultRegion is the region of a Bucket without spec.region.
const defaultRegion = "us-east-1"

// Bucket is a Bucket's spec, with its Secret's data.
type Bucket struct {
	// Provider is generic (any S3 API) or aws.
	Provider string
	// Name is spec.bucketName; Endpoint spec.endpoint (host[:port]);
	// Region and Prefix the spec fields of the same names.
	Name, Endpoint, Region, Prefix string
	// Insecure is spec.insecure: plain http.
	Insecure bool
	// Ignore is spec.ignore; nil when unset.
	Ignore *string
	// Credentials are spec.secretRef's Secret data (accesskey,
	// secretkey); nil without one. Private.
	Credentials map[string][]byte
}

// Tree is a bucket's content at one revision.
type Tree struct {
	// Dir holds the objects, each at its key.
	Dir string
	// Revision is "sha256:" and the hash of the sorted index of keys and
	// ETags.
	Revision string
}

// API is the part of the S3 client a Fetcher uses; *s3.Client is one.
type API interface {
	ListObjectsV2(ctx context.Context, in *awss3.ListObjectsV2Input, opts ...func(*awss3.Options)) (*awss3.ListObjectsV2Output, error)
	GetObject(ctx context.Context, in *awss3.GetObjectInput, opts ...func(*awss3.Options)) (*awss3.GetObjectOutput, error)
}

// Fetcher fetches buckets into a cache directory, each revision once.
type Fetcher struct {
	// CacheDir holds the trees.
	CacheDir string
	// NewAPI makes the client of a bucket; nil is aws-sdk-go-v2's.
	NewAPI func(ctx context.Context, b Bucket) (API, error)

	mu sync.Mutex
}

// Fetch returns the bucket's content, downloading it only when its index
// changed since the last fetch.
func (f *Fetcher) Fetch(ctx context.Context, b Bucket) (Tree, error) {
	t, err := f.fetch(ctx, b)
	if err != nil {
		return Tree{}, fmt.Errorf("fetch bucket %s from %s: %w", b.Name, b.Endpoint, err)
	}
	return t, nil
}

func (f *Fetcher) fetch(ctx context.Context, b Bucket) (Tree, error) {
	if f.CacheDir == "" {
		return Tree{}, errors.New("no cache directory")
	}
	newAPI := f.NewAPI
	if newAPI == nil {
		newAPI = NewAPI
	}
	api, err := newAPI(ctx, b)
	if err != nil {
		return Tree{}, err
	}
	ps, err := bucketIgnore(ctx, api, b.Name)
	if err != nil {
		return Tree{}, err
	}
	if b.Ignore != nil {
		ps = append(ps, sourceignore.ReadPatterns(strings.NewReader(*b.Ignore), nil)...)
	}
	matcher := sourceignore.NewDefaultMatcher(ps, nil)
	index := map[string]string{}
	in := &awss3.ListObjectsV2Input{Bucket: aws.String(b.Name)}
	if b.Prefix != "" {
		in.Prefix = aws.String(b.Prefix)
	}
	for p := awss3.NewListObjectsV2Paginator(api, in); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			return Tree{}, fmt.Errorf("list objects: %w", err)
		}
		for _, o := range page.Contents {
			key := aws.ToString(o.Key)
			if strings.HasSuffix(key, "/") || key == sourceignore.IgnoreFile || !localKey(key) {
				continue
			}
			if matcher.Match(strings.Split(key, "/"), false) {
				continue
			}
			index[key] = strings.Trim(aws.ToString(o.ETag), `"`)
		}
	}
	rev := revision(index)
	f.mu.Lock()
	defer f.mu.Unlock()
	dir := filepath.Join(f.CacheDir, strings.TrimPrefix(rev, "sha256:"))
	if _, err := os.Stat(dir); err == nil {
		return Tree{Dir: dir, Revision: rev}, nil
	}
	if err := os.MkdirAll(f.CacheDir, 0o755); err != nil {
		return Tree{}, err
	}
	tmp, err := os.MkdirTemp(f.CacheDir, ".fetch-")
	if err != nil {
		return Tree{}, err
	}
	defer os.RemoveAll(tmp)
	for key := range index {
		if err := download(ctx, api, b.Name, key, filepath.Join(tmp, filepath.FromSlash(key))); err != nil {
			return Tree{}, err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(dir); serr != nil {
			return Tree{}, err
		}
	}
	return Tree{Dir: dir, Revision: rev}, nil
}

// localKey reports whether an object's key is a relative path that stays
// inside the tree.
func localKey(key string) bool {
	c := path.Clean(key)
	return key != "" && !strings.HasPrefix(key, "/") && c != ".." && !strings.HasPrefix(c, "../")
}

// revision is the sha256 of the index: each key and ETag, sorted by key,
// one "key etag" line each.
func revision(index map[string]string) string {
	keys := make([]string, 0, len(index))
	for k := range index {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s %s\n", k, index[k])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// bucketIgnore reads the patterns of the bucket's .sourceignore, at its
// top level, as source-controller does; none when there is none.
func bucketIgnore(ctx context.Context, api API, bucket string) ([]gitignore.Pattern, error) {
	o, ok, err := internalaws.GetObject(ctx, api, bucket, sourceignore.IgnoreFile)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", sourceignore.IgnoreFile, err)
	}
	if !ok {
		return nil, nil
	}
	return sourceignore.ReadPatterns(strings.NewReader(string(o.Data)), nil), nil
}

// download writes one object to file.
func download(ctx context.Context, api API, bucket, key, file string) error {
	out, err := api.GetObject(ctx, &awss3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		return fmt.Errorf("get %s: %w", key, err)
	}
	defer out.Body.Close()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	w, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, out.Body); err != nil {
		w.Close()
		return fmt.Errorf("get %s: %w", key, err)
	}
	return w.Close()
}

// NewAPI is the S3 client of a bucket, as source-controller makes it:
// the Secret's accesskey and secretkey when there is one, else anonymous
// for generic and the standard AWS chain for aws; http when insecure.
func NewAPI(ctx context.Context, b Bucket) (API, error) {
	region := b.Region
	if region == "" {
		region = defaultRegion
	}
	opts := []func(*awsconfig.LoadOptions) error{awsconfig.WithRegion(region)}
	switch {
	case b.Credentials != nil:
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(
			string(b.Credentials["accesskey"]), string(b.Credentials["secretkey"]), "")))
	case b.Provider != ProviderAWS:
		opts = append(opts, awsconfig.WithCredentialsProvider(aws.AnonymousCredentials{}))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("s3 client: %w", err)
	}
	scheme := "https://"
	if b.Insecure {
		scheme = "http://"
	}
	return awss3.NewFromConfig(cfg, func(o *awss3.Options) {
		o.BaseEndpoint = aws.String(scheme + b.Endpoint)
		o.UsePathStyle = b.Provider != ProviderAWS
	}), nil
}
