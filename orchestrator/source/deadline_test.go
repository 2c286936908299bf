package source

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/source/artifact"
	"github.com/strata-iac/strata/orchestrator/source/bucket"
	"github.com/strata-iac/strata/orchestrator/source/git"
	"github.com/strata-iac/strata/orchestrator/source/oci"
)

// TestSourceDeadline fetches each kind of source from a listener that
// accepts and never answers: each gives up at the source's spec.timeout
// with an error naming the stack, the URL and the deadline.
func TestSourceDeadline(t *testing.T) {
	addr := testkit.DeadListener(t)
	const timeout = 700 * time.Millisecond
	r := &Resolver{
		Root:      t.TempDir(),
		Registry:  oci.New(oci.Options{CacheDir: t.TempDir(), Insecure: []string{addr}}),
		Git:       &git.Fetcher{CacheDir: t.TempDir()},
		Buckets:   &bucket.Fetcher{CacheDir: t.TempDir()},
		Artifacts: &artifact.Fetcher{CacheDir: t.TempDir()},
	}
	for _, tc := range []struct {
		name   string
		source environment.Source
		fetch  bool
		want   string
	}{
		{"OCIRepository", environment.Source{Kind: environment.SourceOCIRepository, Name: "vpc", URL: "oci://" + addr + "/stacks/vpc", Semver: "~1", Timeout: timeout},
			false, "resolve oci://" + addr + "/stacks/vpc: no answer within 700ms"},
		{"GitRepository", environment.Source{Kind: environment.SourceGitRepository, Name: "modules", Timeout: timeout, Git: &environment.GitSource{URL: "http://" + addr + "/acme/modules.git", Branch: "main"}},
			false, "fetch http://" + addr + "/acme/modules.git: no answer within 700ms"},
		{"GitRepository over ssh", environment.Source{Kind: environment.SourceGitRepository, Name: "modules", Timeout: timeout, Git: &environment.GitSource{URL: "ssh://git@" + addr + "/acme/modules.git", Branch: "main", Credentials: sshCredentials(t)}},
			false, "fetch ssh://git@" + addr + "/acme/modules.git: no answer within 700ms"},
		{"Bucket", environment.Source{Kind: environment.SourceBucket, Name: "code", Timeout: timeout, Bucket: &environment.BucketSource{Provider: "generic", BucketName: "code", Endpoint: addr, Insecure: true}},
			false, "fetch s3://" + addr + "/code: no answer within 700ms"},
		{"a cluster's artifact", environment.Source{Kind: environment.SourceGitRepository, Name: "flux-system", Timeout: timeout, Artifact: &environment.Artifact{URL: "http://" + addr + "/gitrepository/flux-system/flux-system/abc.tar.gz", Digest: "sha256:" + strings.Repeat("0", 64), Revision: "main@sha1:" + strings.Repeat("0", 40)}},
			true, "fetch artifact http://" + addr + "/gitrepository/flux-system/flux-system/abc.tar.gz: no answer within 700ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &environment.Stack{Name: "vpc", File: "flux-apps/vpc/terraform.yaml", Path: "vpc", Source: tc.source}
			start := time.Now()
			res, err := r.Resolve(context.Background(), s)
			if tc.fetch && err == nil {
				_, err = r.Fetch(context.Background(), s, res)
			}
			took := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "stack vpc") || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Resolve(%q) = %v, want an error naming stack vpc and saying %q", tc.name, err, tc.want)
			}
			if took > 10*time.Second {
				t.Errorf("Resolve(%q) took %v, want about %v", tc.name, took, timeout)
			}
		})
	}
}

// TestSourceDeadlineDefault is source-controller's 60 s when spec.timeout
// is unset.
func TestSourceDeadlineDefault(t *testing.T) {
	if got := (environment.Source{}).Deadline(); got != 60*time.Second {
		t.Errorf("Source{}.Deadline() = %v, want 1m0s", got)
	}
	if got := (environment.Source{Timeout: 5 * time.Minute}).Deadline(); got != 5*time.Minute {
		t.Errorf("Source{Timeout: 5m}.Deadline() = %v, want 5m0s", got)
	}
}

// sshCredentials are a GitRepository's ssh Secret: a fresh identity, and
// a known_hosts entry (never reached: the dead listener sends no banner).
func sshCredentials(t *testing.T) environment.Credentials {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return environment.Credentials{
		"identity":    pem.EncodeToMemory(block),
		"known_hosts": []byte("127.0.0.1 " + string(ssh.MarshalAuthorizedKey(sshPub))),
	}
}
