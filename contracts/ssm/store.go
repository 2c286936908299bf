package ssm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	awsssm "github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/internal/awsconfig"
)

// Size limits of a parameter value, in bytes.
const (
	// MaxStandardSize is the largest document the Standard tier holds.
	MaxStandardSize = 4096
	// MaxSize is the largest document any tier holds (Advanced).
	MaxSize = 8192
)

// ErrTooLarge is wrapped by Put when a document is over MaxSize.
var ErrTooLarge = errors.New("contract too large for ssm")

// Config says which SSM the store talks to.
type Config struct {
	// Region is the AWS region; empty means the standard chain's
	// (AWS_REGION, shared config).
	Region string
	// Endpoint, when set, replaces the SSM endpoint: a test server or an
	// SSM-compatible service.
	Endpoint string
	// KMSKeyID encrypts SecureString documents; empty means the account's
	// default key for SSM (alias/aws/ssm).
	KMSKeyID string
}

// api is the part of the SSM client the store uses.
type api interface {
	PutParameter(ctx context.Context, in *awsssm.PutParameterInput, opts ...func(*awsssm.Options)) (*awsssm.PutParameterOutput, error)
	GetParameter(ctx context.Context, in *awsssm.GetParameterInput, opts ...func(*awsssm.Options)) (*awsssm.GetParameterOutput, error)
	GetParametersByPath(ctx context.Context, in *awsssm.GetParametersByPathInput, opts ...func(*awsssm.Options)) (*awsssm.GetParametersByPathOutput, error)
}

// Store keeps contract documents as SSM parameters.
type Store struct {
	api      api
	kmsKeyID string
}

var _ contracts.Store = (*Store)(nil)

// New returns a store for the SSM of cfg, with credentials from the
// standard AWS chain. It makes no request: a wrong endpoint or missing
// credentials show on the first Get, Put or List.
func New(ctx context.Context, cfg Config) (*Store, error) {
	client, err := awsconfig.SSM(ctx, awsconfig.Config{Region: cfg.Region, Endpoint: cfg.Endpoint})
	if err != nil {
		return nil, fmt.Errorf("open ssm contract store: %w", err)
	}
	return &Store{api: client, kmsKeyID: cfg.KMSKeyID}, nil
}

// checkKey checks a key or, when prefix is true, a path: it must start
// with "/", and its segments may be neither empty nor "." or "..", and
// hold only the characters SSM allows in a parameter name
// (a-z A-Z 0-9 _ . -). A prefix may be "/" alone; a key may not.
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
		}
		for _, r := range seg {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-') {
				return fmt.Errorf("invalid contract key %q: SSM parameter names hold only a-z, A-Z, 0-9, \"_\", \".\", \"-\" and \"/\", not %q", key, r)
			}
		}
	}
	return nil
}
