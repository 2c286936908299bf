package s3

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/storetest"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/strata-iac/strata/contracts"
)

// putObject writes a raw object, as another writer would.
func putObject(t *testing.T, client *awss3.Client, object, body string) {
	t.Helper()
	_, err := client.PutObject(context.Background(), &awss3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(object), Body: strings.NewReader(body),
	})
	if err != nil {
		t.Fatalf("PutObject(%q) = %v", object, err)
	}
}

func TestGetRoundTripAndLookup(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	storetest.RoundTrip(t, s)
}

func TestGetNotFound(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	storetest.NotFound(t, s, "s3://contracts/")
}

func TestGetOtherWriters(t *testing.T) {
	s, client := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	putObject(t, client, "configuration/seed.json", `{"installed":true,"private":{"database":{"endpoint":"db"}}}`)
	putObject(t, client, "configuration/text.json", "not json")

	got, err := s.Get(ctx, "/configuration/seed")
	if err != nil {
		t.Fatalf("Get(%q) = %v, want nil", "/configuration/seed", err)
	}
	if got.Public == nil || got.Private == nil || !got.Installed {
		t.Errorf("Get(%q) = %+v, want installed with empty, not nil, maps", "/configuration/seed", got)
	}
	_, err = s.Get(ctx, "/configuration/text")
	want := "get contract /configuration/text from s3://contracts/configuration/text.json: decode"
	if err == nil || errors.Is(err, contracts.ErrNotFound) || !strings.Contains(err.Error(), want) {
		t.Errorf("Get(%q) = %v, want an error containing %q that is not ErrNotFound", "/configuration/text", err, want)
	}
}

func TestGetErrors(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	noBucket, _ := newStore(t, Config{Region: "us-east-1", Bucket: "missing"})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		s    *Store
		ctx  context.Context
		key  string
		want string
	}{
		{"bad key", s, context.Background(), "configuration/x", `get contract from s3: invalid contract key "configuration/x"`},
		{"no bucket", noBucket, context.Background(), "/configuration/x", "get contract /configuration/x from s3://missing/configuration/x.json: "},
		{"cancelled", s, cancelled, "/configuration/x", "get contract /configuration/x from s3://contracts/configuration/x.json: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.s.Get(tt.ctx, tt.key)
			if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, contracts.ErrNotFound) {
				t.Errorf("Get(%q) = %v, want an error containing %q that is not ErrNotFound", tt.key, err, tt.want)
			}
		})
	}
}
