package awstest

import (
	"context"
	"errors"
	"go/build"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
)

// Install commands, as the failure messages give them.
const (
	MotoInstall      = "pip install 'moto[server]'"
	VersitygwInstall = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"
)

// startTimeout bounds how long a server may take to answer.
const startTimeout = 60 * time.Second

// Moto starts moto_server on 127.0.0.1 and returns its endpoint
// ("http://127.0.0.1:PORT"). It runs moto_server from PATH, or else
// `python3 -m moto.server`; the server is stopped when the test ends. Any
// credentials are accepted. With -short it skips the test.
func Moto(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts moto_server; skipped with -short")
	}
	var cmd []string
	if p, err := exec.LookPath("moto_server"); err == nil {
		cmd = []string{p}
	} else if py, err := exec.LookPath("python3"); err == nil && exec.Command(py, "-c", "import moto.server").Run() == nil {
		cmd = []string{py, "-m", "moto.server"}
	} else {
		t.Fatalf("moto_server not found on PATH: install it with `%s` (make test installs it)", MotoInstall)
	}
	addr := testkit.FreeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	endpoint := "http://" + addr
	start(t, "moto_server", append(cmd, "-H", "127.0.0.1", "-p", port), endpoint+"/moto-api/")
	return endpoint
}

// Versitygw starts versitygw with its posix backend on a fresh temporary
// directory, on 127.0.0.1, and returns its endpoint and the root
// credentials it accepts. It has no buckets. It runs versitygw from PATH,
// $GOBIN or $GOPATH/bin; the server is stopped when the test ends. With
// -short it skips the test.
func Versitygw(t testing.TB) (endpoint, accessKey, secretKey string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts versitygw; skipped with -short")
	}
	bin, ok := versitygwBinary()
	if !ok {
		t.Fatalf("versitygw not found on PATH, in $GOBIN or in $GOPATH/bin: install it with `%s` (make test installs it)", VersitygwInstall)
	}
	accessKey, secretKey = "strata-test-access", "strata-test-secret-0123456789"
	addr := testkit.FreeAddr(t)
	endpoint = "http://" + addr
	start(t, "versitygw", []string{
		bin, "--quiet",
		"--access", accessKey, "--secret", secretKey,
		"--region", "us-east-1",
		"--port", addr,
		"posix", t.TempDir(),
	}, endpoint+"/")
	return endpoint, accessKey, secretKey
}

// versitygwBinary looks for versitygw where `go install` puts it.
func versitygwBinary() (string, bool) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, true
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	for _, gopath := range filepath.SplitList(build.Default.GOPATH) {
		dirs = append(dirs, filepath.Join(gopath, "bin"))
	}
	for _, dir := range dirs {
		p := filepath.Join(dir, "versitygw")
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// start runs argv, waits until url answers any HTTP status, and stops the
// process when the test ends. The server's output is shown if it fails to
// start.
func start(t testing.TB, name string, argv []string, url string) {
	t.Helper()
	out := &testkit.Buffer{}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group, so that stopping it stops any children too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { stop(t, name, cmd, exited) })

	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			return
		}
		select {
		case err := <-exited:
			exited <- err // for stop
			t.Fatalf("%s exited before it answered on %s: %v\n%s", name, url, err, out.String())
		case <-ctx.Done():
			t.Fatalf("%s did not answer on %s within %v\n%s", name, url, startTimeout, out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop interrupts the server's process group, then kills it if it has not
// exited after a few seconds.
func stop(t testing.TB, name string, cmd *exec.Cmd, exited chan error) {
	pgid := -cmd.Process.Pid
	_ = syscall.Kill(pgid, syscall.SIGINT)
	select {
	case <-exited:
		return
	case <-time.After(5 * time.Second):
	}
	_ = syscall.Kill(pgid, syscall.SIGKILL)
	if err := <-exited; err != nil && !errors.As(err, new(*exec.ExitError)) {
		t.Logf("stop %s: %v", name, err)
	}
}
