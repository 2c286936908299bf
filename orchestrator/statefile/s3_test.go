package statefile_test

import (
	"context"
	"testing"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/orchestrator/statefile"
)

// TestS3 reads state objects from a real S3 server (versitygw).
func TestS3(t *testing.T) {
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "state")
	awstest.PutObject(t, endpoint, "state", "acme/dev/stacks/net.tfstate", `{"version":4,"serial":9,"lineage":"l-1"}`)
	awstest.PutObject(t, endpoint, "state", "acme/dev/stacks/bad.tfstate", `not a state`)
	s, err := statefile.NewS3(context.Background(), "state", awstest.Region, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key     string
		want    statefile.Version
		wantOK  bool
		wantErr bool
	}{
		{"acme/dev/stacks/net.tfstate", statefile.Version{Serial: 9, Lineage: "l-1"}, true, false},
		{"acme/dev/stacks/none.tfstate", statefile.Version{}, false, false},
		{"acme/dev/stacks/bad.tfstate", statefile.Version{}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			got, ok, err := s.Read(context.Background(), tt.key)
			if got != tt.want || ok != tt.wantOK || (err != nil) != tt.wantErr {
				t.Errorf("Read(%q) = %v, %v, %v, want %v, %v, error %v", tt.key, got, ok, err, tt.want, tt.wantOK, tt.wantErr)
			}
		})
	}
}
