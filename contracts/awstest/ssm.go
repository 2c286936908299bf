package awstest

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// ParameterType returns the type (String, SecureString, …) of a parameter
// on the SSM server at endpoint, with the credentials Env set.
func ParameterType(t testing.TB, endpoint, region, name string) string {
	t.Helper()
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(region))
	if err != nil {
		t.Fatalf("load AWS config: %v", err)
	}
	client := ssm.NewFromConfig(cfg, func(o *ssm.Options) { o.BaseEndpoint = aws.String(endpoint) })
	out, err := client.GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String(name)})
	if err != nil {
		t.Fatalf("GetParameter(%q) = %v", name, err)
	}
	return string(out.Parameter.Type)
}
