package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/tofu"
)

// sessionOf returns the running processes of session sid.
func sessionOf(sid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		// After the command: state, ppid, pgrp, session.
		f := bytes.Fields(stat[i+1:])
		// A zombie has exited already: it waits only to be reaped.
		if len(f) > 3 && string(f[3]) == strconv.Itoa(sid) && string(f[0]) != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killSession kills every process of session sid with SIGKILL, as the
// death of a pod or a machine does, until none is left.
func killSession(t *testing.T, sid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := sessionOf(sid)
		if len(pids) == 0 {
			return
		}
		for _, p := range pids {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of session %d left after SIGKILL: %v", sid, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runBounded runs a strata command of the trial, failing the test when it
// does not end within limit.
func (c *crashTrial) runBounded(limit time.Duration, args ...string) (string, int) {
	c.t.Helper()
	cmd, out := c.command(args...)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		c.t.Fatalf("strata %s did not end within %v:\n%s", strings.Join(args, " "), limit, out)
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

// TestKillPodDuringApply kills strata and every process of its session
// (tofu, its provisioners) with SIGKILL in the middle of an apply, as the
// death of a pod or a machine does: nothing goes on. The next apply never
// waits on the tofu that is gone, status and history answer at once, and
// a resource whose create was in flight is never created again silently:
// the stack is held with cause interrupted, naming it, until a person
// approves; then it converges.
func TestKillPodDuringApply(t *testing.T) {
	// It execs strata, each run in a session, repository and state
	// directory of its own: it runs beside the other crash tests.
	t.Parallel()
	bin := buildStrata(t)
	for i := range trials(t) {
		t.Run(fmt.Sprintf("trial %d", i+1), func(t *testing.T) {
			c := newCrashTrial(t, bin)
			cmd, out := c.command("apply", c.env)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			stream := filepath.Join(c.state, "work", "acme", "dev", "crash", tofu.StreamFile)
			deadline := time.Now().Add(3 * time.Minute)
			for {
				if b, _ := os.ReadFile(stream); bytes.Contains(b, []byte(`"apply_start"`)) {
					break
				}
				if time.Now().After(deadline) {
					killSession(t, cmd.Process.Pid)
					_ = cmd.Wait()
					t.Fatalf("the apply never started:\n%s", out)
				}
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(delay(i))
			killSession(t, cmd.Process.Pid)
			_ = cmd.Wait()
			c.convergeAfterKill(out.String(), stream)
		})
	}
}

// TestKillTofuDuringApply kills tofu alone (its process group, with
// SIGKILL) in the middle of an apply, as the OOM killer does, or a pod's
// death that reaches tofu a moment before strata: strata sees tofu exit
// without ending the creates it started. The run is recorded as
// interrupted, and the next apply holds a plan that would create them
// again, as after the death of the whole pod.
func TestKillTofuDuringApply(t *testing.T) {
	// It execs strata, each run in a session, repository and state
	// directory of its own: it runs beside the other crash tests.
	t.Parallel()
	bin := buildStrata(t)
	for i := range trials(t) {
		t.Run(fmt.Sprintf("trial %d", i+1), func(t *testing.T) {
			c := newCrashTrial(t, bin)
			cmd, out := c.startApply()
			stream := filepath.Join(c.state, "work", "acme", "dev", "crash", tofu.StreamFile)
			time.Sleep(delay(i))
			c.killTofu(cmd)
			if code := cmd.ProcessState.ExitCode(); code == 0 {
				t.Fatalf("strata apply whose tofu was killed exited 0, want a failure:\n%s", out)
			}
			c.convergeAfterKill(out.String(), stream)
		})
	}
}

// convergeAfterKill checks what follows an apply whose tofu was killed
// (first is that apply's output): the next apply never waits on the tofu
// that is gone, status and history answer at once, and a resource whose
// create was in flight is never created again silently: the stack is
// held with cause interrupted, naming it, until a person approves; then
// it converges.
func (c *crashTrial) convergeAfterKill(first, stream string) {
	t := c.t
	t.Helper()
	inFlight := inFlightCreates(t, stream)
	t.Logf("in flight at the kill: %v", inFlight)
	// What the failure of a trial needs to be read: both outputs, the
	// apply record and the end of tofu's stream as the kill left them.
	record, _ := os.ReadFile(filepath.Join(filepath.Dir(stream), tofu.RecordFile))
	events, _ := os.ReadFile(stream)
	if len(events) > 4000 {
		events = events[len(events)-4000:]
	}
	evidence := func(got string) string {
		return fmt.Sprintf("in flight: %v\nrecord: %s\nstream (end):\n%s\nfirst:\n%s\nsecond:\n%s", inFlight, record, events, first, got)
	}

	got, code := c.runBounded(2*time.Minute, "apply", c.env)
	for _, args := range [][]string{{"status", c.env}, {"history", c.env}} {
		start := time.Now()
		if _, code := c.runBounded(30*time.Second, args...); code != 0 {
			t.Errorf("strata %s after the kill exited %d, want 0", args[0], code)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("strata %s after the kill took %v, want an answer at once", args[0], took)
		}
	}
	if len(inFlight) > 0 {
		if code != exitHeld || !strings.Contains(got, "interrupted") || !strings.Contains(got, "may exist in the cloud without state: import it or approve to create again") {
			t.Fatalf("strata apply after the kill exited %d, want %d with the stack held as interrupted\n%s", code, exitHeld, evidence(got))
		}
		for _, a := range inFlight {
			if !strings.Contains(got, a) {
				t.Errorf("strata apply after the kill = %s, want it to name %s, in flight at the kill", got, a)
			}
		}
		if b, _ := os.ReadFile(c.creates); strings.Count(string(b), "\n") > crashResources {
			t.Errorf("creations = %q before any approval, want no resource created again", b)
		}
		id := heldPlanID(t, got)
		if _, code := c.runBounded(30*time.Second, "approve", c.env, "crash", id, "--reason", "the kill left nothing in the cloud"); code != 0 {
			t.Fatalf("strata approve %s exited %d, want 0", id, code)
		}
		got, code = c.runBounded(2*time.Minute, "apply", c.env)
	}
	if code != 0 {
		t.Fatalf("strata apply after the kill exited %d, want 0 (converged)\n%s", code, evidence(got))
	}
	if n := c.stateInstances(); n != crashResources {
		t.Errorf("resources in state = %d, want %d\n%s", n, crashResources, evidence(got))
	}
	if left := c.leftovers(); len(left) > 0 {
		t.Errorf("provisioner processes left running: %v, want none", left)
	}
}

// inFlightCreates lists the resources of an apply stream whose create
// started and never ended.
func inFlightCreates(t *testing.T, stream string) []string {
	t.Helper()
	b, err := os.ReadFile(stream)
	if err != nil {
		t.Fatal(err)
	}
	var addrs []string
	for _, a := range tofu.InFlightCreates(bytes.NewReader(b)) {
		addrs = append(addrs, a.Address)
	}
	return addrs
}

// heldPlanID reads the plan id of the approve command an output shows.
func heldPlanID(t *testing.T, out string) string {
	t.Helper()
	i := strings.Index(out, "strata approve ")
	if i < 0 {
		t.Fatalf("output = %s, want the approve command of the held plan", out)
	}
	f := strings.Fields(out[i:])
	if len(f) < 5 {
		t.Fatalf("approve command %q, want its plan id", out[i:])
	}
	return f[4]
}
