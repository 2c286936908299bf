package awsconfig

import (
	"context"
	"errors"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
)

// Config says which service endpoint a client talks to.
type Config struct {
	// Region is the AWS region; empty means the standard chain's
	// (AWS_REGION, shared config).
	Region string
	// Endpoint, when set, replaces the service's endpoint.
	Endpoint string
	// PathStyle addresses an S3 bucket in the path (endpoint/bucket/key)
	// rather than the host name, as most S3-compatible services need. Only
	// S3 clients use it.
	PathStyle bool
	// HTTPClient, when set, sends the requests instead of the SDK's own
	// client; AWS_CA_BUNDLE is then the client's business.
	HTTPClient HTTPClient
}

// HTTPClient sends a client's HTTP requests: an *http.Client, or a
// wrapper of one.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// errNoRegion says how to give the region nobody gave.
var errNoRegion = errors.New("no region: set one in the configuration or AWS_REGION")

// load reads the standard chain with c's region, and fails when no region
// results.
func load(ctx context.Context, c Config) (aws.Config, error) {
	var opts []func(*config.LoadOptions) error
	if c.Region != "" {
		opts = append(opts, config.WithRegion(c.Region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, err
	}
	if cfg.Region == "" {
		return aws.Config{}, errNoRegion
	}
	return cfg, nil
}

// endpoint is the BaseEndpoint of a client: nil keeps the service's.
func (c Config) endpoint() *string {
	if c.Endpoint == "" {
		return nil
	}
	return aws.String(c.Endpoint)
}
