package local

import (
	"testing"
	"time"

	"github.com/strata-iac/strata/contracts"
)

// document builds a document for the stack, failing the test on error.
func document(t *testing.T, stack string) contracts.Document {
	t.Helper()
	d, err := contracts.Build(stack, "0.1.3", map[string]contracts.Output{
		"vpc_id":   {Value: "vpc-1"},
		"subnets":  {Value: []any{"a", "b"}},
		"password": {Value: "hunter2", Sensitive: true},
		"db":       {Value: map[string]any{"endpoint": "db.internal", "port": 5432.0}, Sensitive: true},
	}, nil, time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return d
}
