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

// backend is one kind of store with the init data that opens it.
type backend struct {
	name string
	init map[string]string
}

// backends starts moto_server and versitygw, creates the s3 store's
// bucket, and returns init data for each of the three stores. The
// credentials are versitygw's; moto_server takes any.
func backends(t *testing.T) []backend {
	t.Helper()
	motoEndpoint := awstest.Moto(t)
	s3Endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, s3Endpoint, "contracts")
	return []backend{
		{Local, map[string]string{"region": "eu-central-1"}},
		{SSM, map[string]string{KeyStore: SSM, KeyRegion: awstest.Region, KeyEndpoint: motoEndpoint}},
		{S3, map[string]string{KeyStore: S3, KeyRegion: awstest.Region, KeyEndpoint: s3Endpoint, KeyBucket: "contracts"}},
	}
}
