package awsconfig_test

import (
	"context"
	"testing"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/awsconfig"
)

func TestGetObject(t *testing.T) {
	ctx := context.Background()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "objects")
	awstest.PutObject(t, endpoint, "objects", "a/b.json", `{"a":1}`)
	client, err := awsconfig.S3(ctx, awsconfig.Config{Region: awstest.Region, Endpoint: endpoint, PathStyle: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, bucket, key string
		want              string
		wantOK, wantErr   bool
	}{
		{"object", "objects", "a/b.json", `{"a":1}`, true, false},
		{"no such key", "objects", "a/c.json", "", false, false},
		{"no such bucket", "none", "a/b.json", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := awsconfig.GetObject(ctx, client, tt.bucket, tt.key)
			if string(got.Data) != tt.want || ok != tt.wantOK || (err != nil) != tt.wantErr {
				t.Errorf("GetObject(%s/%s) = %q, %v, %v, want %q, %v, error %v", tt.bucket, tt.key, got.Data, ok, err, tt.want, tt.wantOK, tt.wantErr)
			}
			if ok && got.ETag == "" {
				t.Errorf("GetObject(%s/%s) = no ETag", tt.bucket, tt.key)
			}
			if err != nil && awsconfig.NotFound(err) {
				t.Errorf("NotFound(GetObject(%s/%s) error %v) = true, want a missing bucket apart from a missing key", tt.bucket, tt.key, err)
			}
		})
	}
}
