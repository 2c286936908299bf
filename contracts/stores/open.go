package stores

import (
	"context"
	"fmt"
	"os"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/local"
	"github.com/strata-iac/strata/contracts/s3"
	"github.com/strata-iac/strata/contracts/ssm"
)

// Store kinds, the values of Config.Kind (the init key contractStore).
const (
	Local = "local"
	SSM   = "ssm"
	S3    = "s3"
)

// EnvEndpoint, when set, overrides Config.Endpoint: tests and local runs
// point every store at a server on this machine with it.
const EnvEndpoint = "STRATA_AWS_ENDPOINT"

// Config chooses and locates a contract store. The environment's settings
// (environment.Settings.Contracts) give every field but Dir.
type Config struct {
	// Kind is Local, SSM or S3.
	Kind string
	// Dir is the local store's directory.
	Dir string
	// Region and Endpoint locate the ssm or s3 service; Endpoint replaces
	// the AWS one, for compatible services. EnvEndpoint overrides it.
	Region, Endpoint string
	// Bucket is the s3 store's bucket, addressed in the path when
	// PathStyle.
	Bucket    string
	PathStyle bool
	// KMSKeyID is the KMS key of SSM SecureStrings and S3 SSE-KMS; default
	// the account's default keys.
	KMSKeyID string
}

// Open returns the contract store that c names:
//
//   - local: files under c.Dir;
//   - ssm: SSM Parameter Store in the region, at the endpoint if one is
//     set;
//   - s3: the bucket c.Bucket, likewise.
//
// Credentials for ssm and s3 come from the standard AWS chain. Open makes
// no request; an unknown kind or a missing value is an error naming it.
func Open(ctx context.Context, c Config) (contracts.Store, error) {
	if e := os.Getenv(EnvEndpoint); e != "" {
		c.Endpoint = e
	}
	switch c.Kind {
	case Local:
		if c.Dir == "" {
			return nil, fmt.Errorf("open contract store %s: no directory", c.Kind)
		}
		return local.New(c.Dir), nil
	case SSM:
		st, err := ssm.New(ctx, ssm.Config{Region: c.Region, Endpoint: c.Endpoint, KMSKeyID: c.KMSKeyID})
		if err != nil {
			return nil, fmt.Errorf("open contract store %s: %w", c.Kind, err)
		}
		return st, nil
	case S3:
		if c.Bucket == "" {
			return nil, fmt.Errorf("open contract store %s: no bucket", c.Kind)
		}
		st, err := s3.New(ctx, s3.Config{Bucket: c.Bucket, Region: c.Region, Endpoint: c.Endpoint, PathStyle: c.PathStyle, KMSKeyID: c.KMSKeyID})
		if err != nil {
			return nil, fmt.Errorf("open contract store %s: %w", c.Kind, err)
		}
		return st, nil
	default:
		return nil, fmt.Errorf("open contract store %q: want %s, %s or %s", c.Kind, Local, SSM, S3)
	}
}
