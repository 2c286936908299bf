package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/providers"
)

func TestMirrorAdd(t *testing.T) {
	src := t.TempDir()
	published := mirrorZip(t, src, "terraform-provider-strata_0.1.0_linux_amd64.zip", "0.1.0")
	plain := mirrorZip(t, src, "strata.zip", "0.2.0")
	other := mirrorZip(t, src, "other.zip", "other")
	notZip := filepath.Join(src, "not.zip")
	if err := os.WriteFile(notZip, []byte("nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "mirror")
	prov := []string{"--dir", dir, "--provider", "registry.opentofu.org/strata-iac/strata"}

	tests := []cliCase{
		{"from the published name", append([]string{"mirror", "add", published}, prov...), 0,
			[]string{"added registry.opentofu.org/strata-iac/strata 0.1.0 linux_amd64",
				filepath.Join(dir, "registry.opentofu.org/strata-iac/strata/terraform-provider-strata_0.1.0_linux_amd64.zip"),
				"  h1:", "  zh:"}, nil},
		{"same again", append([]string{"mirror", "add", published}, prov...), 0, []string{"added "}, nil},
		{"named explicitly, short address", []string{"mirror", "add", plain, "--dir", dir, "--provider", "strata-iac/strata",
			"--version", "0.2.0", "--os", "darwin", "--arch", "arm64"}, 0,
			[]string{"added registry.opentofu.org/strata-iac/strata 0.2.0 darwin_arm64"}, nil},
		{"different bytes for a published version", append([]string{"mirror", "add", other, "--version", "0.1.0", "--os", "linux", "--arch", "amd64"}, prov...), 1,
			nil, []string{"already exists with different content"}},
		{"version not in the name", append([]string{"mirror", "add", plain}, prov...), 2,
			nil, []string{"--version is required", "strata.zip is not named terraform-provider-strata_<version>_<os>_<arch>.zip"}},
		{"not a zip", append([]string{"mirror", "add", notZip, "--version", "0.3.0", "--os", "linux", "--arch", "amd64"}, prov...), 1,
			nil, []string{"add provider registry.opentofu.org/strata-iac/strata 0.3.0 linux_amd64: invalid archive"}},
		{"bad version", append([]string{"mirror", "add", plain, "--version", "v1", "--os", "linux", "--arch", "amd64"}, prov...), 1,
			nil, []string{`invalid version "v1"`}},
		{"bad address", []string{"mirror", "add", published, "--dir", dir, "--provider", "strata"}, 2,
			nil, []string{`parse provider "strata"`}},
		{"missing zip file", append([]string{"mirror", "add", filepath.Join(src, "terraform-provider-strata_9.0.0_linux_amd64.zip")}, prov...), 1,
			nil, []string{"no such file"}},
		{"no dir", []string{"mirror", "add", published, "--provider", "strata-iac/strata"}, 2,
			nil, []string{"--dir or --s3-bucket, and --provider are required"}},
		{"dir and bucket", append([]string{"mirror", "add", published, "--s3-bucket", "b"}, prov...), 2,
			nil, []string{"give --dir or --s3-bucket, not both"}},
		{"s3 flag without bucket", append([]string{"mirror", "add", published, "--s3-prefix", "p"}, prov...), 2,
			nil, []string{"--s3-prefix needs --s3-bucket"}},
		{"unknown output", append([]string{"mirror", "add", published, "-o", "yaml"}, prov...), 2,
			nil, []string{`unknown output format "yaml"`}},
		{"help shows the CLI config", []string{"mirror", "--help"}, 0,
			[]string{"provider_installation {", "network_mirror {", `url = "https://mirror.internal:8443/"`, "plugin_cache_dir", "SSL_CERT_FILE",
				`source  = "mirror.internal:8443/acme/network/aws"`, "pull-through cache", "--signing-key"}, nil},
	}
	runCases(t, tests)

	t.Run("json", func(t *testing.T) {
		args := append([]string{"mirror", "add", published, "-o", "json"}, prov...)
		out, errOut, code := strata(t, args...)
		if code != 0 {
			t.Fatalf("strata %q exit code = %d\nstderr:\n%s", args, code, errOut)
		}
		var got mirrorAddResult
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata %q = %v, want JSON:\n%s", args, err, out)
		}
		want, err := providers.HashArchive(context.Background(), published)
		if err != nil {
			t.Fatal(err)
		}
		if got.Provider != "registry.opentofu.org/strata-iac/strata" || got.Version != "0.1.0" || got.Platform != "linux_amd64" ||
			len(got.Hashes) != 2 || got.Hashes[0] != want.H1 || got.Hashes[1] != want.ZH {
			t.Errorf("strata %q = %+v, want 0.1.0 linux_amd64 with hashes %v", args, got, want.List())
		}
	})
}
