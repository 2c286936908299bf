package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/source/oci"
	"github.com/strata-iac/strata/orchestrator/source/oci/ocitest"
)

func TestPush(t *testing.T) {
	reg := ocitest.Start(t)
	t.Setenv(oci.EnvUsername, "")
	t.Setenv(oci.EnvPassword, "")
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"terraform_data\" \"x\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := reg.URL("iac/cli") + ":0.1.0"
	meta := []string{"--source", "https://git.example.com/iac.git", "--revision", "main@sha1:0123abc"}
	dead := testkit.DeadListener(t)

	tests := []cliCase{
		{"text", append([]string{"push", dir, url, "--insecure", "--reproducible"}, meta...), 0,
			[]string{"pushed " + url, "digest sha256:", "pin    " + reg.URL("iac/cli") + "@sha256:"}, nil},
		{"missing source", []string{"push", dir, url, "--insecure", "--revision", "r"}, 2,
			nil, []string{"--source and --revision are required"}},
		{"bad annotation", append([]string{"push", dir, url, "--insecure", "--annotation", "novalue"}, meta...), 2,
			nil, []string{`annotation "novalue": want key=value`}},
		{"plain http not allowed", append([]string{"push", dir, url}, meta...), 1,
			nil, []string{"push " + dir + " to " + url, "plain http to " + reg.Host + " refused"}},
		{"a registry that never answers", append([]string{"push", dir, "oci://" + dead + "/iac/cli:0.1.0", "--insecure", "--timeout", "500ms"}, meta...), 1,
			nil, []string{"push oci://" + dead + "/iac/cli:0.1.0: no answer within 500ms"}},
		{"unknown output", append([]string{"push", dir, url, "-o", "yaml"}, meta...), 2,
			nil, []string{`unknown output format "yaml"`}},
		{"help mirrors flux push artifact", []string{"push", "--help"}, 0,
			[]string{"flux push artifact", "strata push ./flux-apps/network/vpc oci://", "--annotation"}, nil},
	}
	runCases(t, tests)

	t.Run("json, then resolved by tag", func(t *testing.T) {
		args := append([]string{"push", dir, url, "--insecure", "--annotation", "strata.dev/owner=platform", "-o", "json"}, meta...)
		out, errOut, code := strata(t, args...)
		if code != 0 {
			t.Fatalf("strata %q exit code = %d\nstderr:\n%s", args, code, errOut)
		}
		var got pushResult
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata %q = %v, want JSON:\n%s", args, err, out)
		}
		if got.URL != url || got.Repository != strings.TrimPrefix(reg.URL("iac/cli"), oci.Scheme) || got.Tag != "0.1.0" || !strings.HasPrefix(got.Digest, "sha256:") {
			t.Errorf("strata %q = %+v, want url %s, tag 0.1.0 and a digest", args, got, url)
		}
		c := oci.New(oci.Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}})
		r, err := c.Resolve(context.Background(), reg.URL("iac/cli"), oci.Ref{Semver: "~ 0.1.0-0"})
		if err != nil {
			t.Fatalf("Resolve(%q) = %v", reg.URL("iac/cli"), err)
		}
		if r.Digest != got.Digest {
			t.Errorf("Resolve(%q).Digest = %s, want the pushed %s", reg.URL("iac/cli"), r.Digest, got.Digest)
		}
	})
}
