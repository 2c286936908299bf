package awstest

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/strata-iac/strata/internal/awsconfig"
)

// ParameterType returns the type (String, SecureString, …) of a parameter
// on the SSM server at endpoint, with the credentials Env set.
func ParameterType(t testing.TB, endpoint, region, name string) string {
	t.Helper()
	ctx := context.Background()
	client, err := awsconfig.SSM(ctx, awsconfig.Config{Region: region, Endpoint: endpoint})
	if err != nil {
		t.Fatalf("make an SSM client for %s: %v", endpoint, err)
	}
	out, err := client.GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String(name)})
	if err != nil {
		t.Fatalf("GetParameter(%q) = %v", name, err)
	}
	return string(out.Parameter.Type)
}
