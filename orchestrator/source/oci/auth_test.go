package oci

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/source/oci/ocitest"
)

func TestKeychainLookup(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	auth := base64.StdEncoding.EncodeToString([]byte("alice:s3cret:with:colons"))
	writeFile(t, config, `{
  "auths": {
    "registry.example.com:5000": {"auth": "`+auth+`"},
    "https://legacy.example.com/v1/": {"username": "bob", "password": "pw"},
    "tokens.example.com": {"identitytoken": "refresh-me"},
    "registry.example.com:5000/team/special": {"username": "carol", "password": "team"},
    "https://index.docker.io/v1/": {"auth": "`+base64.StdEncoding.EncodeToString([]byte("hub:hubpw"))+`"}
  }
}`)
	tests := []struct {
		name       string
		path       string
		env        map[string]string
		host, repo string
		want       credential
	}{
		{"host match, base64 auth", config, nil, "registry.example.com:5000", "registry.example.com:5000/iac/foo",
			credential{Username: "alice", Password: "s3cret:with:colons", From: config}},
		{"repository match wins over host", config, nil, "registry.example.com:5000", "registry.example.com:5000/team/special",
			credential{Username: "carol", Password: "team", From: config}},
		{"legacy URL key matches its host", config, nil, "legacy.example.com", "legacy.example.com/iac/foo",
			credential{Username: "bob", Password: "pw", From: config}},
		{"identity token", config, nil, "tokens.example.com", "tokens.example.com/x",
			credential{IdentityToken: "refresh-me", From: config}},
		{"docker hub key", config, nil, "index.docker.io", "index.docker.io/library/x",
			credential{Username: "hub", Password: "hubpw", From: config}},
		{"port is part of the host", config, nil, "registry.example.com", "registry.example.com/iac/foo", credential{}},
		{"unknown host is anonymous", config, nil, "other.example.com", "other.example.com/x", credential{}},
		{"env wins over the file", config, map[string]string{EnvUsername: "envuser", EnvPassword: "envpw"},
			"registry.example.com:5000", "registry.example.com:5000/iac/foo",
			credential{Username: "envuser", Password: "envpw", From: "$STRATA_REGISTRY_USERNAME/$STRATA_REGISTRY_PASSWORD"}},
		{"env applies to every registry", "", map[string]string{EnvUsername: "envuser", EnvPassword: "envpw"},
			"anything.example.com", "anything.example.com/x",
			credential{Username: "envuser", Password: "envpw", From: "$STRATA_REGISTRY_USERNAME/$STRATA_REGISTRY_PASSWORD"}},
		{"DOCKER_CONFIG is the default", "", map[string]string{"DOCKER_CONFIG": dir},
			"registry.example.com:5000", "registry.example.com:5000/iac/foo",
			credential{Username: "alice", Password: "s3cret:with:colons", From: config}},
		{"home is the last default", "", map[string]string{"HOME": t.TempDir()},
			"registry.example.com:5000", "registry.example.com:5000/iac/foo", credential{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &keychain{path: tt.path, getenv: func(k string) string { return tt.env[k] }}
			if home, ok := tt.env["HOME"]; ok {
				t.Setenv("HOME", home)
			}
			got, err := k.lookup(tt.host, tt.repo)
			if err != nil {
				t.Fatalf("lookup(%q) = %v", tt.host, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lookup(%q) mismatch (-want +got):\n%s", tt.host, diff)
			}
		})
	}
}

func TestKeychainLookupErrors(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.json")
	writeFile(t, broken, `{"auths": {`)
	badAuth := filepath.Join(dir, "badauth.json")
	writeFile(t, badAuth, `{"auths": {"r.example.com": {"auth": "not base64!"}}}`)
	tests := []struct {
		name, path, want string
	}{
		{"named file missing", filepath.Join(dir, "nope.json"), "read registry credentials for r.example.com: open " + filepath.Join(dir, "nope.json")},
		{"malformed JSON", broken, "read registry credentials for r.example.com from " + broken},
		{"malformed auth field", badAuth, "read registry credentials for r.example.com from " + badAuth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &keychain{path: tt.path, getenv: func(string) string { return "" }}
			_, err := k.lookup("r.example.com", "r.example.com/x")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("lookup(%q) with %s = %v, want an error containing %q", "r.example.com", tt.path, err, tt.want)
			}
		})
	}
}

// TestCredentials reaches a registry that wants a login, with the
// credentials from a Docker config file and from the environment.
func TestCredentials(t *testing.T) {
	reg := ocitest.Start(t, ocitest.WithBasicAuth())
	ctx := context.Background()
	noCredentials(t)
	src := writeTree(t, stackFiles("0.1.0"))
	url := reg.URL("iac/private")

	good := filepath.Join(t.TempDir(), "config.json")
	writeFile(t, good, `{"auths": {"`+reg.Host+`": {"auth": "`+
		base64.StdEncoding.EncodeToString([]byte(ocitest.Username+":"+ocitest.Password))+`"}}}`)
	wrong := filepath.Join(t.TempDir(), "config.json")
	writeFile(t, wrong, `{"auths": {"`+reg.Host+`": {"username": "`+ocitest.Username+`", "password": "wrong"}}}`)

	fromFile := New(Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}, DockerConfig: good})
	if _, err := fromFile.Push(ctx, src, url+":0.1.0", PushMeta{}); err != nil {
		t.Fatalf("Push(%q) with credentials from %s = %v", url, good, err)
	}
	r, err := fromFile.Resolve(ctx, url, Ref{Semver: "0.1.0"})
	if err != nil {
		t.Fatalf("Resolve(%q) with credentials from %s = %v", url, good, err)
	}
	if _, err := fromFile.Pull(ctx, r); err != nil {
		t.Fatalf("Pull(%+v) with credentials from %s = %v", r, good, err)
	}

	for _, c := range []struct {
		name   string
		config string
	}{{"anonymous", ""}, {"wrong password", wrong}} {
		cl := New(Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}, DockerConfig: c.config})
		_, err := cl.Resolve(ctx, url, Ref{Semver: "0.1.0"})
		if err == nil || !strings.Contains(err.Error(), "access denied by "+reg.Host) {
			t.Errorf("Resolve(%q) %s = %v, want access denied", url, c.name, err)
		}
		var nf *NotFoundError
		if errors.As(err, &nf) {
			t.Errorf("Resolve(%q) %s = %v, want no *NotFoundError", url, c.name, err)
		}
	}

	// The environment wins over a file with a wrong password.
	t.Setenv(EnvUsername, ocitest.Username)
	t.Setenv(EnvPassword, ocitest.Password)
	fromEnv := New(Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}, DockerConfig: wrong})
	got, err := fromEnv.Resolve(ctx, url, Ref{Semver: "0.1.0"})
	if err != nil {
		t.Fatalf("Resolve(%q) with credentials from the environment = %v", url, err)
	}
	if got != r {
		t.Errorf("Resolve(%q) = %+v, want %+v", url, got, r)
	}
	if _, err := fromEnv.Pull(ctx, got); err != nil {
		t.Errorf("Pull(%+v) with credentials from the environment = %v", got, err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
