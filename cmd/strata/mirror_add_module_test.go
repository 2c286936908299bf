package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/mirror"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
)

func TestMirrorAddModule(t *testing.T) {
	src := t.TempDir()
	archive := filepath.Join(src, "echo-1.0.0.tar.gz")
	if err := os.WriteFile(archive, mirrortest.Module(t, "1.0.0"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(src, "other.tar.gz")
	if err := os.WriteFile(other, mirrortest.Module(t, "other"), 0o644); err != nil {
		t.Fatal(err)
	}
	moduleDir := filepath.Join(src, "echo")
	for name, body := range map[string]string{
		"main.tf":               `output "version" { value = "1.1.0" }`,
		"modules/inner/main.tf": "",
		".terraform/junk":       "left out",
	} {
		path := filepath.Join(moduleDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	empty := t.TempDir()
	dir := filepath.Join(t.TempDir(), "mirror")
	mod := []string{"--dir", dir, "--module", "strata/echo/null"}
	stored := func(v string) string { return filepath.Join(dir, "modules/strata/echo/null", v+".tar.gz") }

	tests := []cliCase{
		{"an archive", append([]string{"mirror", "add-module", archive, "--version", "1.0.0"}, mod...), 0,
			[]string{"added module strata/echo/null 1.0.0", stored("1.0.0"), `source  = "<mirror host:port>/strata/echo/null"`}, nil},
		{"same again", append([]string{"mirror", "add-module", archive, "--version", "1.0.0"}, mod...), 0, []string{"added module"}, nil},
		{"a directory, packed", append([]string{"mirror", "add-module", moduleDir, "--version", "1.1.0"}, mod...), 0,
			[]string{"added module strata/echo/null 1.1.0", stored("1.1.0")}, nil},
		{"the directory again", append([]string{"mirror", "add-module", moduleDir, "--version", "1.1.0"}, mod...), 0, []string{"added module"}, nil},
		{"different bytes for a published version", append([]string{"mirror", "add-module", other, "--version", "1.0.0"}, mod...), 1,
			nil, []string{"add module strata/echo/null 1.0.0: archive 1.0.0.tar.gz: already exists with different content"}},
		{"a directory without a module", append([]string{"mirror", "add-module", empty, "--version", "2.0.0"}, mod...), 1,
			nil, []string{"no .tf or .tofu file at its top level"}},
		{"bad version", append([]string{"mirror", "add-module", archive, "--version", "v2"}, mod...), 1,
			nil, []string{`invalid version "v2"`}},
		{"no version", append([]string{"mirror", "add-module", archive}, mod...), 2,
			nil, []string{"--dir or --s3-bucket, --module and --version are required"}},
		{"bad module", []string{"mirror", "add-module", archive, "--dir", dir, "--module", "strata/echo", "--version", "1.0.0"}, 2,
			nil, []string{`parse module "strata/echo"`}},
		{"missing source", append([]string{"mirror", "add-module", filepath.Join(src, "none.tar.gz"), "--version", "1.0.0"}, mod...), 1,
			nil, []string{"no such file"}},
		{"help shows the source line", []string{"mirror", "add-module", "--help"}, 0,
			[]string{`source  = "mirror.internal:8443/acme/network/aws"`, `version = "~> 1.2"`, "SSL_CERT_FILE"}, nil},
	}
	runCases(t, tests)

	t.Run("json", func(t *testing.T) {
		args := append([]string{"mirror", "add-module", archive, "--version", "1.0.0", "-o", "json"}, mod...)
		out, errOut, code := strata(t, args...)
		if code != 0 {
			t.Fatalf("strata %q exit code = %d\nstderr:\n%s", args, code, errOut)
		}
		var got mirrorAddModuleResult
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata %q = %v, want JSON:\n%s", args, err, out)
		}
		want := mirrorAddModuleResult{Module: "strata/echo/null", Version: "1.0.0", Path: stored("1.0.0")}
		if got != want {
			t.Errorf("strata %q = %+v, want %+v", args, got, want)
		}
	})

	versions, err := mirror.NewStore(dir).Modules.Versions(context.Background(), "strata", "echo", "null")
	if err != nil || strings.Join(versions, " ") != "1.0.0 1.1.0" {
		t.Errorf("ModuleVersions() after the adds = %v, %v, want 1.0.0 1.1.0", versions, err)
	}
}
