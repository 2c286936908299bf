package ssm

import (
	"context"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/storetest"

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
	return storetest.Document(t, stack)
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
