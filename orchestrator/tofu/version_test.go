package tofu

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// Version asks each binary once: a second call, for any number of stacks,
// starts no process.
func TestVersionAsksOnce(t *testing.T) {
	dir := t.TempDir()
	bin, log := filepath.Join(dir, "tofu"), filepath.Join(dir, "commands.log")
	script := fmt.Sprintf("#!/bin/sh\necho \"$1\" >> %q\nexec %q \"$@\"\n", log, tofutest.Binary(t))
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 3 {
		v, err := Version(ctx, bin)
		if err != nil || compatible(bin, v) != nil {
			t.Fatalf("Version(%q) call %d = %q, %v, want a supported version", bin, i, v, err)
		}
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(b)); len(got) != 1 || got[0] != "version" {
		t.Errorf("Version(%q) three times started %q, want one version process", bin, got)
	}
}

func TestCompatible(t *testing.T) {
	tests := []struct {
		version string
		wantErr string
	}{
		{"1.10.6", ""},
		{"0.15.3", ""},
		{"1.11.0-beta1", ""},
		{"0.15.2", "strata needs 0.15.3 or newer"},
		{"0.12.31", "strata needs 0.15.3 or newer"},
		{"dev", "is not a version"},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			err := compatible("/bin/tofu", tt.version)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("compatible(%q) = %v, want error containing %q", tt.version, err, tt.wantErr)
			}
		})
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{`{"terraform_version":"1.10.6","platform":"linux_amd64","provider_selections":{}}`, "1.10.6", ""},
		{`{"platform":"linux_amd64"}`, "", "no terraform_version"},
		{`OpenTofu v1.10.6`, "", "parse version json"},
	}
	for _, tt := range tests {
		got, err := parseVersion([]byte(tt.in))
		if got != tt.want || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("parseVersion(%q) = %q, %v, want %q, error containing %q", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

// FuzzParseVersion feeds arbitrary bytes to the `version -json` parser: it
// returns a version or an error, never panics, and never an empty version
// without an error.
func FuzzParseVersion(f *testing.F) {
	f.Add([]byte(`{"terraform_version":"1.10.6","platform":"linux_amd64","provider_selections":{}}`))
	f.Add([]byte(`{"terraform_version":""}`))
	f.Add([]byte(`OpenTofu v1.10.6`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseVersion(data)
		if err == nil && v == "" {
			t.Errorf("parseVersion(%q) = \"\", nil, want a version or an error", data)
		}
		if err == nil {
			_ = compatible("/bin/tofu", v)
		}
	})
}
