package providers

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

func TestVersions(t *testing.T) {
	ctx := context.Background()
	s, sDir := newDirStore(t)
	for _, v := range []string{"1.0.0", "0.10.0", "0.9.0", "1.0.0-rc.1"} {
		add(t, s, v, "linux", "amd64")
	}
	add(t, s, "0.9.0", "darwin", "arm64")
	// What is not an archive of the provider is not listed: indexes as
	// tofu providers mirror writes them, upload leftovers, other types,
	// symlinks and directories.
	dir := filepath.Join(sDir, testHost, testNS, testType)
	for _, name := range []string{"index.json", "2.0.0.json", ".terraform-provider-strata_3.0.0_linux_amd64.zip.tmp-1",
		"terraform-provider-other_4.0.0_linux_amd64.zip", "terraform-provider-strata_5.0.0_linux.zip"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "terraform-provider-strata_1.0.0_linux_amd64.zip"),
		filepath.Join(dir, "terraform-provider-strata_6.0.0_linux_amd64.zip")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "terraform-provider-strata_7.0.0_linux_amd64.zip"), 0o755); err != nil {
		t.Fatal(err)
	}

	got, err := s.Versions(ctx, testHost, testNS, testType)
	if err != nil {
		t.Fatalf("Versions() = %v, want nil", err)
	}
	if diff := cmp.Diff([]string{"0.9.0", "0.10.0", "1.0.0-rc.1", "1.0.0"}, got); diff != "" {
		t.Errorf("Versions() mismatch (-want +got):\n%s", diff)
	}
	// Addresses are normalized to lower case, as tofu does.
	if got, err := s.Versions(ctx, "Registry.OpenTofu.org", "Strata-IaC", "Strata"); err != nil || len(got) != 4 {
		t.Errorf("Versions(mixed case) = %v, %v, want the 4 versions", got, err)
	}
}

func TestVersionsErrors(t *testing.T) {
	ctx := context.Background()
	s, sDir := newDirStore(t)
	add(t, s, "0.1.0", "linux", "amd64")
	if err := os.MkdirAll(filepath.Join(sDir, testHost, testNS, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name                 string
		ctx                  context.Context
		host, namespace, typ string
		want                 error
	}{
		{"unknown type", ctx, testHost, testNS, "other", protocol.ErrNotFound},
		{"unknown namespace", ctx, testHost, "other", testType, protocol.ErrNotFound},
		{"unknown host", ctx, "example.com", testNS, testType, protocol.ErrNotFound},
		{"no archives", ctx, testHost, testNS, "empty", protocol.ErrNotFound},
		{"dot dot", ctx, "..", testNS, testType, protocol.ErrInvalid},
		{"slash", ctx, testHost, "a/b", testType, protocol.ErrInvalid},
		{"empty", ctx, testHost, testNS, "", protocol.ErrInvalid},
		{"cancelled", cancelled, testHost, testNS, testType, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Versions(tt.ctx, tt.host, tt.namespace, tt.typ)
			if !errors.Is(err, tt.want) {
				t.Errorf("Versions(%q, %q, %q) = %v, %v, want %v", tt.host, tt.namespace, tt.typ, got, err, tt.want)
			}
		})
	}
}

func TestArchives(t *testing.T) {
	ctx := context.Background()
	s, sDir := newDirStore(t)
	add(t, s, "0.1.0", "linux", "amd64")
	add(t, s, "0.1.0", "darwin", "arm64")
	add(t, s, "0.2.0", "linux", "amd64")

	got, err := s.Archives(ctx, testHost, testNS, testType, "0.1.0")
	if err != nil {
		t.Fatalf("Archives(0.1.0) = %v, want nil", err)
	}
	want := map[string]Archive{}
	for _, platform := range []string{"linux_amd64", "darwin_arm64"} {
		name := "terraform-provider-strata_0.1.0_" + platform + ".zip"
		h, err := HashArchive(ctx, filepath.Join(sDir, testHost, testNS, testType, name))
		if err != nil {
			t.Fatal(err)
		}
		want[platform] = Archive{URL: name, Hashes: []string{h.H1, h.ZH}}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Archives(0.1.0) mismatch (-want +got):\n%s", diff)
	}

	errs := []struct {
		version string
		want    error
	}{
		{"0.3.0", protocol.ErrNotFound},
		{"v0.1.0", protocol.ErrInvalid},
		{"0.1", protocol.ErrInvalid},
		{"../0.1.0", protocol.ErrInvalid},
	}
	for _, tt := range errs {
		t.Run(tt.version, func(t *testing.T) {
			got, err := s.Archives(ctx, testHost, testNS, testType, tt.version)
			if !errors.Is(err, tt.want) {
				t.Errorf("Archives(%q) = %v, %v, want %v", tt.version, got, err, tt.want)
			}
		})
	}
}
