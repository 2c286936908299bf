package ssm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/storetest"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsssm "github.com/aws/aws-sdk-go-v2/service/ssm"
	"github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/strata-iac/strata/contracts"
)

func TestGetRoundTripAndLookup(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	storetest.RoundTrip(t, s)
}

func TestGetNotFound(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	storetest.NotFound(t, s, "ssm")
}

// put writes a raw parameter, as another writer would.
func put(t *testing.T, client *awsssm.Client, key, value string) {
	t.Helper()
	_, err := client.PutParameter(context.Background(), &awsssm.PutParameterInput{
		Name: aws.String(key), Value: aws.String(value), Type: types.ParameterTypeString, Overwrite: aws.Bool(true),
	})
	if err != nil {
		t.Fatalf("PutParameter(%q) = %v", key, err)
	}
}

func TestGetOtherWriters(t *testing.T) {
	s, client := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	put(t, client, "/configuration/seed", `{"installed":true,"private":{"database":{"endpoint":"db"}}}`)
	put(t, client, "/configuration/text", "not json")

	got, err := s.Get(ctx, "/configuration/seed")
	if err != nil {
		t.Fatalf("Get(%q) = %v, want nil", "/configuration/seed", err)
	}
	if got.Public == nil || !got.Installed {
		t.Errorf("Get(%q) = %+v, want installed with empty public", "/configuration/seed", got)
	}
	if v, ok := got.Lookup("private.database.endpoint"); !ok || v != "db" {
		t.Errorf("Lookup(%q) = %v, %v, want db", "private.database.endpoint", v, ok)
	}

	_, err = s.Get(ctx, "/configuration/text")
	if err == nil || errors.Is(err, contracts.ErrNotFound) || !strings.Contains(err.Error(), "get contract /configuration/text from ssm: decode") {
		t.Errorf("Get(%q) = %v, want a decode error that is not ErrNotFound", "/configuration/text", err)
	}
}

func TestGetErrors(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		key  string
		want string
	}{
		{"bad key", context.Background(), "configuration/x", `get contract from ssm: invalid contract key "configuration/x"`},
		{"cancelled", cancelled, "/configuration/x", "get contract /configuration/x from ssm: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Get(tt.ctx, tt.key)
			if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, contracts.ErrNotFound) {
				t.Errorf("Get(%q) = %v, want an error containing %q that is not ErrNotFound", tt.key, err, tt.want)
			}
		})
	}
}
