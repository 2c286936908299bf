package ocitest

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
)

// Binary is where the docker-registry package installs the registry.
const Binary = "/usr/bin/docker-registry"

// EnvBinary names a registry binary to use instead of Binary.
const EnvBinary = "STRATA_TEST_REGISTRY"

// startTimeout bounds how long the registry may take to answer GET /v2/.
const startTimeout = 15 * time.Second

// Registry is a running registry process.
type Registry struct {
	// Host is the registry's address, "127.0.0.1:PORT".
	Host string
	// Root is the storage directory: the filesystem driver's rootdirectory.
	Root string

	cmd      *exec.Cmd
	exited   chan struct{}
	output   *testkit.Buffer
	stopOnce sync.Once
}

// The account of a registry started WithBasicAuth.
const (
	Username = "strata"
	Password = "correct horse battery"
	// passwordBcrypt is Password's bcrypt hash, the form htpasswd files
	// hold (cost 5, so logins are fast).
	passwordBcrypt = "$2b$05$stratastratastratastrOr5ZWqwLQKiiJ2n/9/fAUL0qMTv/iYZ6"
)

// Option changes how a registry is started.
type Option func(*settings)

type settings struct {
	basicAuth bool
}

// WithBasicAuth makes the registry accept only the account Username with
// Password, over HTTP basic authentication.
func WithBasicAuth() Option {
	return func(s *settings) { s.basicAuth = true }
}

// Start runs a registry on a free loopback port, with no authentication
// unless an Option asks for it and with its storage in a t.TempDir. It
// waits until GET /v2/ answers and stops the registry in t.Cleanup. It
// fails the test when the registry binary is not installed. With -short it
// skips the test.
func Start(t testing.TB, opts ...Option) *Registry {
	t.Helper()
	if testing.Short() {
		t.Skip("starts an OCI registry; skipped with -short")
	}
	bin := os.Getenv(EnvBinary)
	if bin == "" {
		bin = Binary
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("OCI registry %s not found: install it with `apt-get install -y docker-registry` (make test does)", bin)
	}
	var set settings
	for _, o := range opts {
		o(&set)
	}
	root := t.TempDir()
	var lastErr error
	// A free port can be taken between choosing it and the registry
	// binding it; try a few.
	for range 3 {
		r, err := start(bin, root, testkit.FreeAddr(t), set)
		if err == nil {
			t.Cleanup(r.Stop)
			return r
		}
		lastErr = err
	}
	t.Fatalf("start OCI registry %s: %v", bin, lastErr)
	return nil
}

func start(bin, root, host string, set settings) (*Registry, error) {
	storage := filepath.Join(root, "storage")
	if err := os.MkdirAll(storage, 0o755); err != nil {
		return nil, err
	}
	htpasswd := ""
	if set.basicAuth {
		htpasswd = filepath.Join(root, "htpasswd")
		if err := os.WriteFile(htpasswd, []byte(Username+":"+passwordBcrypt+"\n"), 0o644); err != nil {
			return nil, err
		}
	}
	config := filepath.Join(root, "config.yml")
	if err := os.WriteFile(config, []byte(configYAML(host, storage, htpasswd)), 0o644); err != nil {
		return nil, err
	}
	out := &testkit.Buffer{}
	cmd := exec.Command(bin, "serve", config)
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.Dir = root
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := &Registry{Host: host, Root: storage, cmd: cmd, exited: make(chan struct{}), output: out}
	go func() {
		_ = cmd.Wait()
		close(r.exited)
	}()
	if err := r.waitReady(); err != nil {
		r.Stop()
		return nil, fmt.Errorf("%w\nregistry output:\n%s", err, out.String())
	}
	return r, nil
}

// configYAML is the registry's configuration: filesystem storage under
// storage, plain http on host, errors only in the log, and basic
// authentication from htpasswd when it is not empty.
func configYAML(host, storage, htpasswd string) string {
	auth := ""
	if htpasswd != "" {
		auth = fmt.Sprintf("auth:\n  htpasswd:\n    realm: strata-test\n    path: %q\n", htpasswd)
	}
	return fmt.Sprintf(`version: 0.1
log:
  level: error
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: %q
  delete:
    enabled: true
  maintenance:
    uploadpurging:
      enabled: false
http:
  addr: %q
%s`, storage, host, auth)
}

func (r *Registry) waitReady() error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(startTimeout)
	for {
		select {
		case <-r.exited:
			return errors.New("registry exited before it answered")
		default:
		}
		resp, err := client.Get("http://" + r.Host + "/v2/")
		if err == nil {
			resp.Body.Close()
			// 401 is the answer of a registry that wants a login.
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusUnauthorized {
				return nil
			}
			err = fmt.Errorf("GET /v2/: %s", resp.Status)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("registry on %s did not answer within %s: %w", r.Host, startTimeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop ends the registry and waits for it to exit; afterwards its port
// refuses connections. Stop may be called more than once.
func (r *Registry) Stop() {
	r.stopOnce.Do(func() {
		_ = r.cmd.Process.Signal(os.Interrupt)
		select {
		case <-r.exited:
		case <-time.After(5 * time.Second):
			_ = r.cmd.Process.Kill()
			<-r.exited
		}
	})
}

// URL returns the oci:// address of a repository on this registry, with
// ref (":tag" or "@sha256:…") appended as given.
func (r *Registry) URL(repo string) string {
	return "oci://" + r.Host + "/" + strings.TrimPrefix(repo, "/")
}

// BlobPath is the file that holds a blob's content in the registry's
// storage, so a test can corrupt it.
func (r *Registry) BlobPath(digest string) string {
	algo, hex, _ := strings.Cut(digest, ":")
	if len(hex) < 2 {
		return ""
	}
	return filepath.Join(r.Root, "docker", "registry", "v2", "blobs", algo, hex[:2], hex, "data")
}

// Output is what the registry process wrote so far, for failure messages.
func (r *Registry) Output() string { return r.output.String() }
