package providers

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

func TestParseProvider(t *testing.T) {
	tests := []struct {
		in      string
		want    Provider
		wantErr bool
	}{
		{"registry.opentofu.org/strata-iac/strata", Provider{"registry.opentofu.org", "strata-iac", "strata"}, false},
		{"strata-iac/strata", Provider{DefaultHostname, "strata-iac", "strata"}, false},
		{"Registry.Example.com:8443/Acme/Cloud", Provider{"registry.example.com:8443", "acme", "cloud"}, false},
		{"hashicorp/aws", Provider{DefaultHostname, "hashicorp", "aws"}, false},
		{"aws", Provider{}, true},
		{"a/b/c/d", Provider{}, true},
		{"../strata-iac/strata", Provider{}, true},
		{"registry.opentofu.org/../strata", Provider{}, true},
		{"registry.opentofu.org/strata-iac/..", Provider{}, true},
		{"registry.opentofu.org//strata", Provider{}, true},
		{"registry.opentofu.org/-acme/cloud", Provider{}, true},
		{"registry.opentofu.org/acme/cloud-", Provider{}, true},
		{"registry.opentofu.org/ac--me/cloud", Provider{}, true},
		{"registry.opentofu.org/acme/my_cloud", Provider{}, true},
		{"bad_host/acme/cloud", Provider{}, true},
		{"host%2f/acme/cloud", Provider{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseProvider(tt.in)
			if tt.wantErr {
				if !errors.Is(err, protocol.ErrInvalid) {
					t.Errorf("ParseProvider(%q) = %v, %v, want an error wrapping protocol.ErrInvalid", tt.in, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseProvider(%q) = %v, want nil", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseProvider(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if again, err := ParseProvider(got.String()); err != nil || again != got {
				t.Errorf("ParseProvider(%q) = %v, %v, want %v (String round trip)", got.String(), again, err, got)
			}
		})
	}
}

func TestArchiveName(t *testing.T) {
	got := ArchiveName("strata", "0.1.0", "linux", "amd64")
	if want := "terraform-provider-strata_0.1.0_linux_amd64.zip"; got != want {
		t.Errorf("ArchiveName() = %q, want %q", got, want)
	}
}

func TestParseArchiveName(t *testing.T) {
	tests := []struct {
		name   string
		want   archive
		wantOK bool
	}{
		{"terraform-provider-strata_0.1.0_linux_amd64.zip", archive{version: "0.1.0", os: "linux", arch: "amd64"}, true},
		{"terraform-provider-strata_1.0.0-rc.1_darwin_arm64.zip", archive{version: "1.0.0-rc.1", os: "darwin", arch: "arm64"}, true},
		{"terraform-provider-other_0.1.0_linux_amd64.zip", archive{}, false},
		{"terraform-provider-strata_0.1.0_linux_amd64.tar.gz", archive{}, false},
		{"terraform-provider-strata_0.1.0_linux.zip", archive{}, false},
		{"terraform-provider-strata_0.1.0_linux_amd64_x.zip", archive{}, false},
		{"terraform-provider-strata_v0.1.0_linux_amd64.zip", archive{}, false},
		{"terraform-provider-strata_0.1.0+build_linux_amd64.zip", archive{}, false},
		{"terraform-provider-strata_0.1.0-RC1_linux_amd64.zip", archive{}, false},
		{"terraform-provider-strata_0.1.0_Linux_amd64.zip", archive{}, false},
		{"terraform-provider-strata_0.1.0_../_amd64.zip", archive{}, false},
		{"index.json", archive{}, false},
		{"0.1.0.json", archive{}, false},
		{".terraform-provider-strata_0.1.0_linux_amd64.zip.tmp-123", archive{}, false},
		{"terraform-provider-strata_0.1.0_linux_amd64.zip.hashes", archive{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseArchiveName("strata", tt.name)
			if ok != tt.wantOK || got != tt.want {
				t.Errorf("parseArchiveName(%q) = %v, %v, want %v, %v", tt.name, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestParseArchiveNameExported(t *testing.T) {
	v, os, arch, ok := ParseArchiveName("aws", "terraform-provider-aws_5.31.0_darwin_arm64.zip")
	if v != "5.31.0" || os != "darwin" || arch != "arm64" || !ok {
		t.Errorf("ParseArchiveName(aws, ...) = %q, %q, %q, %v, want 5.31.0, darwin, arm64, true", v, os, arch, ok)
	}
	if _, _, _, ok := ParseArchiveName("aws", "provider.zip"); ok {
		t.Errorf("ParseArchiveName(aws, provider.zip) ok = true, want false")
	}
}
