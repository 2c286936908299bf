package awsconfig

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// S3 returns an S3 client for c.
func S3(ctx context.Context, c Config) (*s3.Client, error) {
	cfg, err := load(ctx, c)
	if err != nil {
		return nil, err
	}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = c.endpoint()
		if c.HTTPClient != nil {
			o.HTTPClient = c.HTTPClient
		}
		o.UsePathStyle = c.PathStyle
	}), nil
}
