package stores

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/local"
	"github.com/strata-iac/strata/contracts/s3"
	"github.com/strata-iac/strata/contracts/ssm"
)

// Keys of the init ConfigMap that choose and configure the store. Flux
// ignores them; the stacks may substitute them like any other key.
const (
	// KeyStore names the store: local (the default), ssm or s3.
	KeyStore = "contractStore"
	// KeyPrefix is where contracts live; default contracts.DefaultPrefix.
	KeyPrefix = "contractPrefix"
	// KeyRegion is the store's AWS region; default the init key region.
	KeyRegion = "contractRegion"
	// KeyEndpoint replaces the SSM or S3 endpoint, for compatible
	// services.
	KeyEndpoint = "contractEndpoint"
	// KeyBucket is the s3 store's bucket; required for s3.
	KeyBucket = "contractBucket"
	// KeyPathStyle ("true" or "false") addresses the s3 store's bucket in
	// the path; default true when an endpoint is set, false otherwise.
	KeyPathStyle = "contractPathStyle"
	// KeyKMSKeyID is the KMS key for SSM SecureStrings and S3 SSE-KMS;
	// default the account's default keys (SSE-S3 for s3).
	KeyKMSKeyID = "contractKmsKeyId"
	// KeyInitRegion is the environment's region, the seed's init key.
	KeyInitRegion = "region"
)

// Store names, the values of KeyStore.
const (
	Local = "local"
	SSM   = "ssm"
	S3    = "s3"
)

// EnvEndpoint, when set, overrides KeyEndpoint: tests and local runs point
// every store at a server on this machine with it.
const EnvEndpoint = "STRATA_AWS_ENDPOINT"

// Open returns the contract store of the environment client/env, chosen by
// the init ConfigMap's data (see the Key constants):
//
//   - local: files under stateDir/contracts/<client>/<env>;
//   - ssm: SSM Parameter Store in the region, at the endpoint if one is
//     set;
//   - s3: the bucket contractBucket, likewise.
//
// Credentials for ssm and s3 come from the standard AWS chain. Open makes
// no request; an unknown store name or a bad value is an error naming the
// key.
func Open(ctx context.Context, init map[string]string, stateDir, client, env string) (contracts.Store, error) {
	name := strings.TrimSpace(init[KeyStore])
	if name == "" {
		name = Local
	}
	if _, err := prefix(init); err != nil {
		return nil, fmt.Errorf("open contract store: %w", err)
	}
	region := init[KeyRegion]
	if region == "" {
		region = init[KeyInitRegion]
	}
	endpoint := init[KeyEndpoint]
	if e := os.Getenv(EnvEndpoint); e != "" {
		endpoint = e
	}
	kmsKeyID := init[KeyKMSKeyID]

	switch name {
	case Local:
		if client == "" || env == "" {
			return nil, fmt.Errorf("open contract store %s: the client (%q) and environment (%q) must both be named", name, client, env)
		}
		return local.New(filepath.Join(stateDir, "contracts", client, env)), nil
	case SSM:
		st, err := ssm.New(ctx, ssm.Config{Region: region, Endpoint: endpoint, KMSKeyID: kmsKeyID})
		if err != nil {
			return nil, fmt.Errorf("open contract store %s: %w", name, err)
		}
		return st, nil
	case S3:
		bucket := init[KeyBucket]
		if bucket == "" {
			return nil, fmt.Errorf("open contract store %s: init key %s is required when %s is %s", name, KeyBucket, KeyStore, S3)
		}
		pathStyle := endpoint != ""
		if v := init[KeyPathStyle]; v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, fmt.Errorf("open contract store %s: init key %s is %q: want true or false", name, KeyPathStyle, v)
			}
			pathStyle = b
		}
		st, err := s3.New(ctx, s3.Config{Bucket: bucket, Region: region, Endpoint: endpoint, PathStyle: pathStyle, KMSKeyID: kmsKeyID})
		if err != nil {
			return nil, fmt.Errorf("open contract store %s: %w", name, err)
		}
		return st, nil
	default:
		return nil, fmt.Errorf("open contract store: init key %s is %q: want %s, %s or %s", KeyStore, name, Local, SSM, S3)
	}
}

// Prefix returns where the environment's contracts live: init key
// contractPrefix ("/configuration" by default), with one leading slash and
// none trailing. A prefix with an empty, "." or ".." segment is an error
// naming the key.
func Prefix(init map[string]string) (string, error) {
	p, err := prefix(init)
	if err != nil {
		return "", fmt.Errorf("contract prefix: %w", err)
	}
	return p, nil
}

func prefix(init map[string]string) (string, error) {
	raw := init[KeyPrefix]
	if raw == "" {
		return contracts.DefaultPrefix, nil
	}
	p := "/" + strings.Trim(raw, "/")
	if p == "/" {
		return p, nil
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("init key %s is %q: segment %q is not allowed", KeyPrefix, raw, seg)
		}
	}
	return p, nil
}
