package awstest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// stateBucket is the seed's state bucket.
const stateBucket = "terraform-states"

// stack is a tiny stack whose state lives in S3 with native locking: the
// seed's backendConfig.customConfiguration, with the role and DynamoDB
// table replaced by a lock file next to the state and the settings an
// S3-compatible endpoint needs. Its one resource waits, while it is
// applied, until the file named by var.gate exists, so that a test can
// hold the lock for as long as it likes.
const stack = `terraform {
  backend "s3" {
    bucket = "terraform-states"
    key    = "%s"
    region = "us-east-1"
    endpoints = {
      s3 = "%s"
    }
    use_path_style              = true
    use_lockfile                = true
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    skip_region_validation      = true
  }
}

variable "gate" {
  type    = string
  default = ""
}

resource "terraform_data" "this" {
  input = "%s"

  provisioner "local-exec" {
    command = var.gate == "" ? "true" : "while [ ! -e '${var.gate}' ]; do sleep 0.1; done"
  }
}
`

// stateKey is the seed's state key, ${clientId}/${environment}/stacks/<stack>.tfstate.
func stateKey(client, env, name string) string {
	return fmt.Sprintf("%s/%s/stacks/%s.tfstate", client, env, name)
}

// tofuRunner runs the real tofu in one stack's directory.
type tofuRunner struct {
	bin, dir string
	env      []string
}

// newStack writes the stack for state key into a fresh directory.
func newStack(t *testing.T, bin, endpoint, key, cliConfig string) *tofuRunner {
	t.Helper()
	dir := t.TempDir()
	src := fmt.Sprintf(stack, key, endpoint, key)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return &tofuRunner{bin: bin, dir: dir, env: append(os.Environ(),
		// The machine's default CLI configuration may name a missing file.
		"TF_CLI_CONFIG_FILE="+cliConfig,
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		"CHECKPOINT_DISABLE=1",
	)}
}

func (r *tofuRunner) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, r.bin, args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// run runs tofu to the end and fails the test when it fails.
func (r *tofuRunner) run(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := r.command(ctx, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("tofu %s = %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// diagnostic is one -json diagnostic line of tofu.
type diagnostic struct {
	Level      string `json:"@level"`
	Type       string `json:"type"`
	Diagnostic struct {
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail"`
	} `json:"diagnostic"`
}

// errorDiagnostics returns the error diagnostics of tofu's -json output.
func errorDiagnostics(t *testing.T, out []byte) []diagnostic {
	t.Helper()
	var diags []diagnostic
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var d diagnostic
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("tofu -json printed a line that is not JSON: %q: %v", sc.Text(), err)
		}
		if d.Type == "diagnostic" && d.Diagnostic.Severity == "error" {
			diags = append(diags, d)
		}
	}
	return diags
}

// object reads an object, or reports that there is none.
func object(t *testing.T, client *s3.Client, key string) ([]byte, bool) {
	t.Helper()
	out, err := client.GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(stateBucket), Key: aws.String(key)})
	var noKey *types.NoSuchKey
	if errors.As(err, &noKey) {
		return nil, false
	}
	if err != nil {
		t.Fatalf("GetObject(%q) = %v", key, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return data, true
}

// resources returns "type.name" of each resource in a state file.
func resources(t *testing.T, state []byte) []string {
	t.Helper()
	var s struct {
		Resources []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(state, &s); err != nil {
		t.Fatalf("decode state: %v\n%s", err, state)
	}
	var out []string
	for _, r := range s.Resources {
		out = append(out, r.Type+"."+r.Name)
	}
	return out
}

func TestS3StateWithNativeLocking(t *testing.T) {
	bin := tofutest.Binary(t)
	endpoint, access, secret := Versitygw(t)
	Env(t, access, secret)
	CreateBucket(t, endpoint, stateBucket)
	client := s3Client(t, endpoint)
	cliConfig := filepath.Join(t.TempDir(), "tofurc")
	if err := os.WriteFile(cliConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	// Two stacks of one environment: distinct state keys.
	fooKey, barKey := stateKey("acme", "dev", "foo"), stateKey("acme", "dev", "bar")
	foo := newStack(t, bin, endpoint, fooKey, cliConfig)
	bar := newStack(t, bin, endpoint, barKey, cliConfig)
	for _, s := range []*tofuRunner{foo, bar} {
		s.run(t, "init", "-input=false", "-no-color")
	}
	foo.run(t, "apply", "-auto-approve", "-input=false", "-no-color")

	state, ok := object(t, client, fooKey)
	if !ok {
		t.Fatalf("GetObject(%q) after apply: no object, want the state", fooKey)
	}
	if got := resources(t, state); len(got) != 1 || got[0] != "terraform_data.this" {
		t.Errorf("state %s resources = %v, want [terraform_data.this]", fooKey, got)
	}
	if _, ok := object(t, client, fooKey+".tflock"); ok {
		t.Errorf("GetObject(%q) after apply: the lock is still there, want it released", fooKey+".tflock")
	}

	// A first process holds foo's lock: an apply that waits for the gate.
	gate := filepath.Join(t.TempDir(), "gate")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var firstOut bytes.Buffer
	first := foo.command(ctx, "apply", "-auto-approve", "-input=false", "-no-color",
		"-replace=terraform_data.this", "-var", "gate="+gate)
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	firstDone := make(chan error, 1)
	go func() { firstDone <- first.Wait() }()
	defer func() {
		// Let the first apply finish whatever happened.
		_ = os.WriteFile(gate, nil, 0o600)
		select {
		case <-firstDone:
		case <-time.After(time.Minute):
			cancel()
		}
	}()

	lockKey := fooKey + ".tflock"
	var lock []byte
	for deadline := time.Now().Add(time.Minute); ; {
		if data, ok := object(t, client, lockKey); ok {
			lock = data
			break
		}
		select {
		case err := <-firstDone:
			t.Fatalf("the first apply ended before it took the lock: %v\n%s", err, firstOut.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no lock object %s while the first apply runs", lockKey)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var info struct {
		ID        string `json:"ID"`
		Operation string `json:"Operation"`
		Path      string `json:"Path"`
	}
	if err := json.Unmarshal(lock, &info); err != nil || info.ID == "" {
		t.Fatalf("lock object %s = %s (%v), want the lock info with an ID", lockKey, lock, err)
	}
	if want := stateBucket + "/" + fooKey; info.Path != want {
		t.Errorf("lock %s Path = %q, want %q", lockKey, info.Path, want)
	}

	// A second process finds the lock held, and says by whom.
	out, err := foo.command(ctx, "plan", "-json", "-input=false", "-lock-timeout=0s").Output()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 1 {
		t.Fatalf("tofu plan while the lock is held = %v, want exit status 1\n%s", err, out)
	}
	diags := errorDiagnostics(t, out)
	idLine := regexp.MustCompile(`(?m)^\s*ID:\s+` + regexp.QuoteMeta(info.ID) + `$`)
	if len(diags) != 1 || diags[0].Diagnostic.Summary != "Error acquiring the state lock" || !idLine.MatchString(diags[0].Diagnostic.Detail) {
		t.Errorf("tofu plan -json while the lock is held: error diagnostics %+v, want one %q whose detail gives lock ID %s", diags, "Error acquiring the state lock", info.ID)
	}
	if len(diags) > 0 {
		t.Logf("second process: %s\n%s", diags[0].Diagnostic.Summary, diags[0].Diagnostic.Detail)
	}
	for _, want := range []string{"Path:      " + info.Path, "Operation: OperationTypeApply"} {
		if len(diags) == 1 && !strings.Contains(diags[0].Diagnostic.Detail, want) {
			t.Errorf("lock error detail = %q, want it to contain %q", diags[0].Diagnostic.Detail, want)
		}
	}

	// Another stack's state has its own key and its own lock.
	bar.run(t, "apply", "-auto-approve", "-input=false", "-no-color")
	if _, ok := object(t, client, barKey); !ok {
		t.Errorf("GetObject(%q) after applying bar: no object, want bar's state", barKey)
	}

	// The first apply goes on once let through, and releases the lock.
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-firstDone:
		if err != nil {
			t.Fatalf("the first apply = %v, want success\n%s", err, firstOut.String())
		}
		firstDone <- nil // for the deferred wait
	case <-time.After(2 * time.Minute):
		t.Fatalf("the first apply did not finish after the gate opened\n%s", firstOut.String())
	}
	if _, ok := object(t, client, lockKey); ok {
		t.Errorf("GetObject(%q) after the first apply: the lock is still there, want it released", lockKey)
	}
	foo.run(t, "plan", "-input=false", "-no-color", "-lock-timeout=0s", "-detailed-exitcode")
}
