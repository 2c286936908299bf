package ssm

import (
	"context"
	"strings"
	"testing"
	"time"

	awsssm "github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/awstest"
)

// newStore starts moto_server and returns a store on it, with the SDK
// client the store uses, for looking behind its back.
func newStore(t *testing.T, cfg Config) (*Store, *awsssm.Client) {
	t.Helper()
	cfg.Endpoint = awstest.Moto(t)
	awstest.Env(t, "testing", "testing")
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New(%+v) = %v, want nil", cfg, err)
	}
	return s, s.api.(*awsssm.Client)
}

// document builds a document for the stack with public and private data.
func document(t *testing.T, stack string) contracts.Document {
	t.Helper()
	d, err := contracts.Build(stack, "0.1.3", map[string]contracts.Output{
		"vpc_id":  {Value: "vpc-1"},
		"subnets": {Value: []any{"a", "b"}},
		"private": {Value: map[string]any{"database": map[string]any{
			"endpoint": "db.internal", "port": 5432.0, "database_username": "app",
		}}},
	}, nil, time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// publicOnly is a document without private data.
func publicOnly(t *testing.T, stack string) contracts.Document {
	t.Helper()
	d := document(t, stack)
	d.Private = map[string]any{}
	return d
}

// sized pads d's public data so that its JSON is exactly size bytes.
func sized(t *testing.T, d contracts.Document, size int) contracts.Document {
	t.Helper()
	d.Public = map[string]any{"pad": ""}
	data, err := encode(d)
	if err != nil {
		t.Fatal(err)
	}
	if size < len(data) {
		t.Fatalf("sized(%d): the document is already %d bytes", size, len(data))
	}
	d.Public = map[string]any{"pad": strings.Repeat("x", size-len(data))}
	if data, _ := encode(d); len(data) != size {
		t.Fatalf("sized(%d) = %d bytes", size, len(data))
	}
	return d
}
