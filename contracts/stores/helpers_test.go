package stores

import (
	"testing"
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/awstest"
)

// document builds a document for the stack with public and private data.
func document(t *testing.T, stack string) contracts.Document {
	t.Helper()
	d, err := contracts.Build(stack, "0.1.3", map[string]contracts.Output{
		"vpc_id": {Value: "vpc-1"},
		"private": {Value: map[string]any{"database": map[string]any{
			"endpoint": "db.internal", "database_username": "app",
		}}},
	}, nil, time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// backend is one kind of store with the config that opens it; a local
// store's Dir is set by the test.
type backend struct {
	name string
	cfg  Config
}

// in returns the backend's config with a local store under dir.
func (b backend) in(dir string) Config {
	c := b.cfg
	if c.Kind == Local {
		c.Dir = dir
	}
	return c
}

// backends starts moto_server and versitygw, creates the s3 store's
// bucket, and returns the config of each of the three stores. The
// credentials are versitygw's; moto_server takes any.
func backends(t *testing.T) []backend {
	t.Helper()
	motoEndpoint := awstest.Moto(t)
	s3Endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, s3Endpoint, "contracts")
	return []backend{
		{Local, Config{Kind: Local, Region: "eu-central-1"}},
		{SSM, Config{Kind: SSM, Region: awstest.Region, Endpoint: motoEndpoint}},
		{S3, Config{Kind: S3, Region: awstest.Region, Endpoint: s3Endpoint, Bucket: "contracts", PathStyle: true}},
	}
}
