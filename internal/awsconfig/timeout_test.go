package awsconfig

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestTimeout calls S3 and SSM at a listener that never answers: each
// call gives up after its attempts of Timeout, with an error naming the
// URL and the deadline.
func TestTimeout(t *testing.T) {
	isolate(t, "eu-central-1")
	endpoint := "http://" + testkit.DeadListener(t)
	prev := SetTimeout(300 * time.Millisecond) // --aws-timeout 300ms
	t.Cleanup(func() { SetTimeout(prev) })
	c := Config{Endpoint: endpoint, PathStyle: true}
	for _, tc := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"S3 GetObject", func(ctx context.Context) error {
			client, err := S3(ctx, c)
			if err != nil {
				return err
			}
			_, err = client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("contracts"), Key: aws.String("acme/dev/vpc.json")})
			return err
		}},
		{"SSM GetParameter", func(ctx context.Context) error {
			client, err := SSM(ctx, c)
			if err != nil {
				return err
			}
			_, err = client.GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String("/strata/acme/dev/vpc")})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			err := tc.call(t.Context())
			took := time.Since(start)
			var te *TimeoutError
			if !errors.As(err, &te) || !strings.HasPrefix(te.URL, endpoint) || !strings.Contains(err.Error(), "no answer within 300ms") || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s = %v, want a TimeoutError naming %s and 300ms", tc.name, err, endpoint)
			}
			if took > 30*time.Second {
				t.Errorf("%s took %v, want a few attempts of 300ms", tc.name, took)
			}
			t.Logf("%s gave up after %v: %v", tc.name, took, err)
		})
	}
}
