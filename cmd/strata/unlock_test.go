package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/statefile"
)

// TestStaleLocalLock crashes tofu (kill -9) in the middle of an apply: the
// lock info it leaves beside the local state is reported with its ID, and
// released by `strata unlock` (who and why recorded in history) or, on the
// next apply, by strata itself, since no process holds the lock.
func TestStaleLocalLock(t *testing.T) {
	// It execs strata, each run in a session, repository and state
	// directory of its own: it runs beside the other crash tests.
	t.Parallel()
	bin := buildStrata(t)
	c := newCrashTrial(t, bin)
	crashTofu := func() statefile.Lock {
		t.Helper()
		cmd, out := c.startApply()
		c.killTofu(cmd)
		l, ok, err := statefile.ReadLocalLock(filepath.Join(c.state, "state", "acme", "dev", "crash.tfstate"))
		if err != nil || !ok || l.Held {
			t.Fatalf("ReadLocalLock() after tofu was killed = %+v, %v, %v, want a lock no one holds\n%s", l, ok, err, out)
		}
		return l
	}

	l := crashTofu()
	runCases(t, []cliCase{
		{"unlock needs a reason", []string{"unlock", c.env, "crash", l.ID, "--state-dir", c.state}, exitUsage, nil, []string{"--reason is required"}},
		{"unlock of another lock", []string{"unlock", c.env, "crash", "not-the-lock", "--reason", "x", "--state-dir", c.state}, 1, nil,
			[]string{"the state's lock is " + l.ID + ", not not-the-lock"}},
		{"unlock", []string{"unlock", c.env, "crash", l.ID, "--reason", "crashed in a test", "--by", "ana", "--state-dir", c.state}, 0,
			[]string{"released lock " + l.ID, "by ana: crashed in a test"}, nil},
	})
	if _, ok, _ := statefile.ReadLocalLock(filepath.Join(c.state, "state", "acme", "dev", "crash.tfstate")); ok {
		t.Errorf("the lock info is still there after strata unlock")
	}
	out, _, code := strata(t, "history", c.env, "--state-dir", c.state, "-o", "json")
	if code != 0 || !strings.Contains(out, `"unlocked"`) || !strings.Contains(out, "by ana: crashed in a test") {
		t.Errorf("strata history = %d\n%s\nwant the unlock recorded with who and why", code, out)
	}
	if !json.Valid([]byte(out)) {
		t.Errorf("strata history -o json is not JSON:\n%s", out)
	}

	// The first crash's creates were in flight: the next apply holds
	// them until a person approves, then converges. Two more resources
	// give the next apply something to do.
	if got, code := c.applyApproving(); code != exitConverged {
		t.Fatalf("strata apply after tofu crashed and the lock was released = %d, want %d\n%s", code, exitConverged, got)
	}
	testkit.EditFile(t, c.env, "init.yaml", "  resources: \"4\"\n", "  resources: \"6\"\n")
	l = crashTofu()
	got, code := c.applyApproving()
	if code != 0 || !strings.Contains(got, "stale state lock left by a crashed run: lock "+l.ID) {
		t.Errorf("strata apply after tofu crashed = %d\n%s\nwant the stale lock %s reported and the stack applied", code, got, l.ID)
	}
}

// applyApproving runs `strata apply`; when it holds the stack because
// creates were in flight when tofu was killed, it approves the held plan
// (the test's resources leave nothing in the cloud) and applies again. It
// returns both outputs and the last exit code.
func (c *crashTrial) applyApproving() (string, int) {
	c.t.Helper()
	got, code := c.apply()
	if code != exitHeld || !strings.Contains(got, "may exist in the cloud without state") {
		return got, code
	}
	id := heldPlanID(c.t, got)
	if _, code := c.runBounded(30*time.Second, "approve", c.env, "crash", id, "--reason", "the test's resources leave nothing in the cloud"); code != 0 {
		c.t.Fatalf("strata approve %s exited %d, want 0", id, code)
	}
	again, code := c.apply()
	return got + again, code
}

// TestStaleS3Lock works with the .tflock object beside a state in S3
// (versitygw). A tofu killed in the middle of an apply leaves its lock,
// provably dead by the apply's record: the next apply releases it by
// itself, and holds the creates that were in flight. A lock of a tofu that
// strata did not start is reported, with holder, age, ID and the command
// that releases it; `strata unlock` releases it; with
// spec.tfstate.forceUnlock: auto, strata releases it when its holder is
// provably dead; and with forceUnlock: yes, only the lock that
// lockIdentifier names.
func TestStaleS3Lock(t *testing.T) {
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "states")
	bin := buildStrata(t)
	c := newCrashTrial(t, bin)
	root := filepath.Dir(filepath.Dir(filepath.Dir(c.env)))
	testkit.EditFile(t, c.env, "init.yaml", "  resources: \"4\"\n",
		"  resources: \"4\"\n  stateBackend: s3\n  stateBucket: states\n  stateRegion: "+awstest.Region+"\n  stateEndpoint: "+endpoint+"\n")
	const key = "acme/dev/stacks/crash.tfstate"
	reader, err := statefile.NewS3(context.Background(), "states", awstest.Region, endpoint)
	if err != nil {
		t.Fatal(err)
	}

	// The apply's tofu killed, strata watching.
	cmd, out := c.startApply()
	rec := c.killTofu(cmd)
	dead, ok, err := reader.ReadLock(context.Background(), key)
	if err != nil || !ok {
		t.Fatalf("ReadLock(%q) after tofu was killed = %+v, %v, %v, want the lock it left\n%s", key, dead, ok, err, out)
	}
	got, code := c.applyApproving()
	if code != exitConverged || !strings.Contains(got, fmt.Sprintf("released the state lock of run #%d's apply, whose tofu (pid %d) is gone: lock %s", rec.Run, rec.PID, dead.ID)) {
		t.Fatalf("strata apply after its tofu was killed = %d\n%s\nwant the dead apply's lock %s released and the stack applied", code, got, dead.ID)
	}

	// orphanLock leaves a lock as a tofu of this host that strata did not
	// start (a person's, run by hand) leaves it when it dies: no apply
	// record speaks for it. Each new resource gives the next apply
	// something to do.
	n := 4
	orphanLock := func() statefile.Lock {
		t.Helper()
		testkit.EditFile(t, c.env, "init.yaml", fmt.Sprintf("  resources: \"%d\"\n", n), fmt.Sprintf("  resources: \"%d\"\n", n+1))
		n++
		l := dead
		l.ID = fmt.Sprintf("0f1e2d3c-0000-4000-8000-%012d", n)
		l.Created = time.Now().UTC()
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		awstest.PutObject(t, endpoint, "states", key+".tflock", string(b))
		return l
	}

	l := orphanLock()
	got, code = c.apply()
	if code != exitFailed || !strings.Contains(got, "the state is locked: lock "+l.ID) || !strings.Contains(got, "strata unlock "+c.env+" crash "+l.ID) {
		t.Errorf("strata apply with a stale S3 lock = %d\n%s\nwant it failed, the lock %s reported and the command that releases it", code, got, l.ID)
	}
	runCases(t, []cliCase{
		{"unlock", []string{"unlock", c.env, "crash", l.ID, "--reason", "crashed in a test", "--by", "ana", "--state-dir", c.state}, 0,
			[]string{"released lock " + l.ID, "by ana: crashed in a test"}, nil},
	})
	if _, ok, err := reader.ReadLock(context.Background(), key); ok || err != nil {
		t.Errorf("ReadLock(%q) after strata unlock = %v, %v, want no lock", key, ok, err)
	}

	l = orphanLock()
	testkit.EditFile(t, root, "flux-apps/crash/terraform.yaml", "  approvePlan: auto\n", "  approvePlan: auto\n  tfstate:\n    forceUnlock: auto\n")
	got, code = c.apply()
	if code != exitConverged || !strings.Contains(got, "released the state lock its holder left: lock "+l.ID) {
		t.Errorf("strata apply with forceUnlock: auto and a dead holder = %d\n%s\nwant lock %s released and the stack applied", code, got, l.ID)
	}

	// forceUnlock: yes releases the lock lockIdentifier names, and no
	// other, as the Tofu Controller does.
	l = orphanLock()
	testkit.EditFile(t, root, "flux-apps/crash/terraform.yaml", "    forceUnlock: auto\n", "    forceUnlock: \"yes\"\n    lockIdentifier: not-the-lock\n")
	got, code = c.apply()
	if code != exitFailed || !strings.Contains(got, "spec.tfstate.lockIdentifier is not-the-lock, but the state's lock is "+l.ID+": it is not released") {
		t.Errorf("strata apply with forceUnlock: yes and another lock's ID = %d\n%s\nwant lock %s kept and the stack failed", code, got, l.ID)
	}
	testkit.EditFile(t, root, "flux-apps/crash/terraform.yaml", "lockIdentifier: not-the-lock\n", "lockIdentifier: "+l.ID+"\n")
	got, code = c.apply()
	if code != exitConverged || !strings.Contains(got, "released the state lock "+l.ID+", as spec.tfstate.forceUnlock: yes and lockIdentifier name it") {
		t.Errorf("strata apply with forceUnlock: yes and the lock's ID = %d\n%s\nwant lock %s released and the stack applied", code, got, l.ID)
	}
}
