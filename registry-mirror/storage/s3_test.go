package storage

import (
	"context"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/awstest"
)

func TestS3Prefix(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{"", "", false},
		{"/", "", false},
		{"mirror", "mirror/", false},
		{"/strata/mirror/", "strata/mirror/", false},
		{"a//b", "", true},
		{"a/../b", "", true},
		{"./a", "", true},
		{`a\b`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := s3Prefix(tt.in)
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("s3Prefix(%q) = %q, %v, want %q (error %v)", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "invalid prefix") {
				t.Errorf("s3Prefix(%q) = %v, want an invalid prefix error", tt.in, err)
			}
		})
	}
}

func TestNewS3Errors(t *testing.T) {
	awstest.Env(t, "access", "secret")
	tests := []struct {
		name   string
		cfg    S3Config
		region string
		want   string
	}{
		{"no bucket", S3Config{Region: "us-east-1"}, awstest.Region, "open s3 mirror store: no bucket"},
		{"bad prefix", S3Config{Bucket: "b", Prefix: "a/../b"}, awstest.Region, `open s3 mirror store s3://b: invalid prefix "a/../b"`},
		{"no region", S3Config{Bucket: "b"}, "", "open s3 mirror store s3://b: no region"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("AWS_REGION", tt.region)
			t.Setenv("AWS_DEFAULT_REGION", tt.region)
			s, err := NewS3(context.Background(), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewS3(%+v) = %v, %v, want an error containing %q", tt.cfg, s, err, tt.want)
			}
		})
	}
}
