package awsconfig

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// SSM returns an SSM client for c; PathStyle is ignored.
func SSM(ctx context.Context, c Config) (*ssm.Client, error) {
	cfg, err := load(ctx, c)
	if err != nil {
		return nil, err
	}
	return ssm.NewFromConfig(cfg, func(o *ssm.Options) {
		o.BaseEndpoint = c.endpoint()
		if c.HTTPClient != nil {
			o.HTTPClient = c.HTTPClient
		}
	}), nil
}
