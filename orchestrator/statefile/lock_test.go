package statefile_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/statefile"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestReadLocalLock takes the lock of a local state with a real tofu
// apply: while tofu runs, the lock is held by its process; once tofu is
// killed (a crash), the lock info it left is found, held by no one.
func TestReadLocalLock(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "s.tfstate")
	main := `terraform {
  backend "local" {
    path = ` + strconv.Quote(state) + `
  }
}
resource "terraform_data" "slow" {
  provisioner "local-exec" {
    command = "sleep 60"
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := func(args ...string) *exec.Cmd {
		cmd := exec.Command(tofutest.Binary(t), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd
	}
	if out, err := tf("init", "-input=false").CombinedOutput(); err != nil {
		t.Fatalf("tofu init = %v\n%s", err, out)
	}
	if _, ok, err := statefile.ReadLocalLock(state); ok || err != nil {
		t.Fatalf("ReadLocalLock(%q) before any apply = %v, %v, want no lock", state, ok, err)
	}
	apply := tf("apply", "-auto-approve", "-input=false")
	if err := apply.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(-apply.Process.Pid, syscall.SIGKILL) }()
	var l statefile.Lock
	deadline := time.Now().Add(time.Minute)
	for {
		var ok bool
		var err error
		if l, ok, err = statefile.ReadLocalLock(state); err != nil {
			t.Fatal(err)
		} else if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("tofu apply never took the lock")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !l.Held || l.HolderPID != apply.Process.Pid || l.ID == "" || l.Operation != "OperationTypeApply" {
		t.Errorf("ReadLocalLock(%q) while tofu applies = %+v, want held by pid %d for an apply", state, l, apply.Process.Pid)
	}

	_ = syscall.Kill(-apply.Process.Pid, syscall.SIGKILL)
	_ = apply.Wait()
	stale, ok, err := statefile.ReadLocalLock(state)
	if err != nil || !ok {
		t.Fatalf("ReadLocalLock(%q) after kill -9 = %v, %v, want the lock info tofu left", state, ok, err)
	}
	if stale.Held || stale.HolderPID != 0 || stale.ID != l.ID {
		t.Errorf("ReadLocalLock(%q) after kill -9 = %+v, want lock %s held by no one", state, stale, l.ID)
	}
	if d := stale.Describe(time.Now()); !strings.Contains(d, l.ID) || !strings.Contains(d, "OperationTypeApply") {
		t.Errorf("Describe() = %q, want the ID and the operation", d)
	}
}
