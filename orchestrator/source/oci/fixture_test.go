package oci

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/orchestrator/source/oci/ocitest"
)

// noCredentials keeps a developer's own credentials out of the tests.
func noCredentials(t *testing.T) {
	t.Helper()
	t.Setenv(EnvUsername, "")
	t.Setenv(EnvPassword, "")
	t.Setenv("DOCKER_CONFIG", t.TempDir())
}

// newClient returns a Client with its own cache that may use plain http
// to reg.
func newClient(t *testing.T, reg *ocitest.Registry) *Client {
	t.Helper()
	noCredentials(t)
	return New(Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}})
}

// writeTree writes files (slash paths) under a new temporary directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// stackFiles is a tiny stack whose code says its version.
func stackFiles(version string) map[string]string {
	return map[string]string{
		"main.tf":             "resource \"terraform_data\" \"version\" {\n  input = \"" + version + "\"\n}\n",
		"variables.tf":        "variable \"app_version\" {\n  type    = string\n  default = \"\"\n}\n",
		"modules/tag/main.tf": "output \"tag\" {\n  value = \"" + version + "\"\n}\n",
	}
}

// tree reads every regular file under dir, by slash path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// published is a registry holding the stack iac/foo at 0.1.0, 0.2.0 and
// 0.3.0-rc.1, plus the tags "latest" (0.2.0) and "main" (0.3.0-rc.1).
type published struct {
	reg     *ocitest.Registry
	client  *Client
	url     string
	digests map[string]string // by tag
}

func publish(t *testing.T) *published {
	t.Helper()
	reg := ocitest.Start(t)
	c := newClient(t, reg)
	p := &published{reg: reg, client: c, url: reg.URL("iac/foo"), digests: map[string]string{}}
	for _, tag := range []string{"0.1.0", "0.2.0", "0.3.0-rc.1"} {
		p.push(t, tag, tag)
	}
	p.push(t, "latest", "0.2.0")
	p.push(t, "main", "0.3.0-rc.1")
	return p
}

// push pushes the stack at version under tag.
func (p *published) push(t *testing.T, tag, version string) {
	t.Helper()
	dir := writeTree(t, stackFiles(version))
	meta := PushMeta{
		Source:      "https://git.example.com/iac.git",
		Revision:    version + "@sha1:0123456789abcdef0123456789abcdef01234567",
		Annotations: map[string]string{AnnotationCreated: ReproducibleCreated},
	}
	d, err := p.client.Push(context.Background(), dir, p.url+":"+tag, meta)
	if err != nil {
		t.Fatalf("Push(%q) = %v", p.url+":"+tag, err)
	}
	p.digests[tag] = d
}
