package ssm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsssm "github.com/aws/aws-sdk-go-v2/service/ssm"
	"github.com/aws/aws-sdk-go-v2/service/ssm/types"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
)

func TestGetRoundTripAndLookup(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	key := contracts.Key("", "foo")
	want := document(t, "foo")
	if err := s.Put(ctx, key, want); err != nil {
		t.Fatalf("Put(%q) = %v, want nil", key, err)
	}
	got, err := s.Get(ctx, key)
	if err != nil {
		t.Fatalf("Get(%q) = %v, want nil", key, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Get(%q) mismatch (-want +got):\n%s", key, diff)
	}
	// What an ExternalSecret with remoteRef.key /configuration/foo reads.
	props := []struct {
		property string
		want     any
	}{
		{"private.database.endpoint", "db.internal"},
		{"private.database.database_username", "app"},
		{"private.database.port", 5432.0},
		{"public.subnets.1", "b"},
		{"stack", "foo"},
	}
	for _, p := range props {
		if v, ok := got.Lookup(p.property); !ok || !cmp.Equal(v, p.want) {
			t.Errorf("Lookup(%q) = %v, %v, want %v", p.property, v, ok, p.want)
		}
	}
}

func TestGetNotFound(t *testing.T) {
	s, _ := newStore(t, Config{Region: "us-east-1"})
	ctx := context.Background()
	if err := s.Put(ctx, "/configuration/foo", document(t, "foo")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"/configuration/missing", "/configuration", "/configuration/foo/bar"} {
		t.Run(key, func(t *testing.T) {
			_, err := s.Get(ctx, key)
			if !errors.Is(err, contracts.ErrNotFound) || !strings.Contains(err.Error(), "get contract "+key+" from ssm") {
				t.Errorf("Get(%q) = %v, want an error naming the key wrapping ErrNotFound", key, err)
			}
		})
	}
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
