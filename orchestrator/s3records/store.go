package s3records

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/internal/awsconfig"
	"github.com/strata-iac/strata/orchestrator/records"
)

// DefaultKeep is how many runs of each stack are kept when Config.Keep is
// zero.
const DefaultKeep = records.DefaultKeep

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

// Store keeps history, held plans and approvals as objects in a bucket,
// under a prefix: the records engine over the bucket's objects. It is
// safe for any number of goroutines and of processes.
type Store struct {
	*records.Records
	objects *objects
}

// New returns a Store for the bucket and prefix of cfg, with credentials
// from the standard AWS chain. It makes no request: a missing bucket, a
// wrong endpoint or missing credentials show on the first read or write.
func New(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("s3 records: no bucket")
	}
	client, err := awsconfig.S3(ctx, awsconfig.Config{Region: cfg.Region, Endpoint: cfg.Endpoint, PathStyle: cfg.PathStyle})
	if err != nil {
		return nil, fmt.Errorf("s3 records s3://%s/%s: %w", cfg.Bucket, cfg.Prefix, err)
	}
	o := &objects{api: client, bucket: cfg.Bucket, prefix: cleanPrefix(cfg.Prefix)}
	recs, err := records.New(o, records.Config{Keep: cfg.Keep, Dir: cfg.Dir})
	if err != nil {
		return nil, fmt.Errorf("s3 records: %w", err)
	}
	return &Store{Records: recs, objects: o}, nil
}

// Location is where the records are: s3://bucket/prefix.
func (s *Store) Location() string { return s.objects.Location() }
