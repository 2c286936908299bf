package awsconfig

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"
)

// isolate points the standard chain away from anything on the machine and
// sets AWS_REGION to envRegion ("" for none).
func isolate(t *testing.T, envRegion string) {
	t.Helper()
	missing := filepath.Join(t.TempDir(), "none")
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID":           "test",
		"AWS_SECRET_ACCESS_KEY":       "test",
		"AWS_SESSION_TOKEN":           "",
		"AWS_REGION":                  envRegion,
		"AWS_DEFAULT_REGION":          "",
		"AWS_PROFILE":                 "",
		"AWS_CONFIG_FILE":             missing,
		"AWS_SHARED_CREDENTIALS_FILE": missing,
		"AWS_EC2_METADATA_DISABLED":   "true",
	} {
		t.Setenv(k, v)
	}
}

// options is what a test compares of a made client.
type options struct {
	Region    string
	Endpoint  string
	PathStyle bool
}

func TestHTTPClient(t *testing.T) {
	isolate(t, "us-east-1")
	ctx := context.Background()
	own := &http.Client{}
	tests := []struct {
		name string
		cfg  Config
		want bool // the client sends through own
	}{
		{"own client", Config{HTTPClient: own}, true},
		{"the SDK's", Config{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s3c, err := S3(ctx, tt.cfg)
			if err != nil {
				t.Fatalf("S3(%+v) = %v", tt.cfg, err)
			}
			if got := s3c.Options().HTTPClient == HTTPClient(own); got != tt.want {
				t.Errorf("S3(%+v) sends through the given client = %v, want %v", tt.cfg, got, tt.want)
			}
			ssmc, err := SSM(ctx, tt.cfg)
			if err != nil {
				t.Fatalf("SSM(%+v) = %v", tt.cfg, err)
			}
			if got := ssmc.Options().HTTPClient == HTTPClient(own); got != tt.want {
				t.Errorf("SSM(%+v) sends through the given client = %v, want %v", tt.cfg, got, tt.want)
			}
		})
	}
}

func TestClients(t *testing.T) {
	tests := []struct {
		name      string
		envRegion string
		cfg       Config
		wantS3    options
		wantSSM   options
		wantErr   string
	}{
		{
			name:    "all given",
			cfg:     Config{Region: "eu-west-1", Endpoint: "http://127.0.0.1:7070", PathStyle: true},
			wantS3:  options{Region: "eu-west-1", Endpoint: "http://127.0.0.1:7070", PathStyle: true},
			wantSSM: options{Region: "eu-west-1", Endpoint: "http://127.0.0.1:7070"},
		},
		{
			name:      "region from the environment, service endpoint",
			envRegion: "us-east-2",
			wantS3:    options{Region: "us-east-2"},
			wantSSM:   options{Region: "us-east-2"},
		},
		{
			name:      "given region wins over the environment",
			envRegion: "us-east-2",
			cfg:       Config{Region: "ap-south-1"},
			wantS3:    options{Region: "ap-south-1"},
			wantSSM:   options{Region: "ap-south-1"},
		},
		{
			name:    "no region",
			cfg:     Config{Endpoint: "http://127.0.0.1:7070"},
			wantErr: "no region: set one in the configuration or AWS_REGION",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t, tt.envRegion)
			ctx := context.Background()

			s3c, err := S3(ctx, tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("S3(%+v) = %v, want error %q", tt.cfg, err, tt.wantErr)
				}
			} else {
				if err != nil {
					t.Fatalf("S3(%+v) = %v", tt.cfg, err)
				}
				o := s3c.Options()
				got := options{Region: o.Region, Endpoint: aws.ToString(o.BaseEndpoint), PathStyle: o.UsePathStyle}
				if diff := cmp.Diff(tt.wantS3, got); diff != "" {
					t.Errorf("S3(%+v) options (-want +got):\n%s", tt.cfg, diff)
				}
			}

			ssmc, err := SSM(ctx, tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("SSM(%+v) = %v, want error %q", tt.cfg, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("SSM(%+v) = %v", tt.cfg, err)
			}
			o := ssmc.Options()
			got := options{Region: o.Region, Endpoint: aws.ToString(o.BaseEndpoint)}
			if diff := cmp.Diff(tt.wantSSM, got); diff != "" {
				t.Errorf("SSM(%+v) options (-want +got):\n%s", tt.cfg, diff)
			}
		})
	}
}
