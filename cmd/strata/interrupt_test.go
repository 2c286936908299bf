package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// envStall makes the test binary a command that ignores its context
// (stall): "read-only" or "writes" says which kind of command it is.
const envStall = "STRATA_TEST_STALL"

// envStallTemp is the temporary file a read-only stall makes.
const envStallTemp = "STRATA_TEST_STALL_TEMP"

// stall is a command stuck in code that never looks at its context, as a
// library deep in a load could be: it says "ready", then waits for ever
// (a read-only command, whose temporary file a forced exit removes) or,
// once interrupted, 3 s more (a command that writes, finishing its write).
func stall(mode string) int {
	var in interrupts
	ctx, stop := in.watch(context.Background(), "stall", mode == "read-only", os.Stderr)
	defer stop()
	if mode == "read-only" {
		tmp := os.Getenv(envStallTemp)
		if err := os.WriteFile(tmp, nil, 0o600); err != nil {
			fmt.Println(err)
			return 1
		}
		atForcedExit(ctx, func() { _ = os.Remove(tmp) })
		fmt.Println("ready")
		select {}
	}
	fmt.Println("ready")
	<-ctx.Done()
	time.Sleep(3 * time.Second)
	fmt.Println("finished the write")
	return 0
}

// TestInterrupts runs the test binary as a stuck command and signals it:
// a read-only command ends within 2 s of SIGTERM with exit 143 (130 for
// SIGINT) and a line naming it, whatever it was doing, and removes the
// temporary files it registered; a command that
// writes is left to finish on the first signal and ended at once by a
// second.
func TestInterrupts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mode     string
		signals  []syscall.Signal
		wantCode int
		wantOut  string
		within   time.Duration
	}{
		{"read-only, SIGTERM", "read-only", []syscall.Signal{syscall.SIGTERM}, 143, "strata stall: interrupted by SIGTERM", 2 * time.Second},
		{"read-only, SIGINT", "read-only", []syscall.Signal{syscall.SIGINT}, 130, "strata stall: interrupted by SIGINT", 2 * time.Second},
		{"writes, one signal", "writes", []syscall.Signal{syscall.SIGTERM}, 0, "finished the write", 6 * time.Second},
		{"writes, two signals", "writes", []syscall.Signal{syscall.SIGTERM, syscall.SIGTERM}, -1, "", 2 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			tmp := filepath.Join(t.TempDir(), "checkout")
			cmd.Env = append(os.Environ(), envStall+"="+tc.mode, envStallTemp+"="+tmp)
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(stdout)
			if !lines.Scan() || lines.Text() != "ready" {
				_ = cmd.Process.Kill()
				t.Fatalf("stall said %q, want ready", lines.Text())
			}
			var out strings.Builder
			done := make(chan struct{})
			go func() {
				for lines.Scan() {
					out.WriteString(lines.Text() + "\n")
				}
				_ = cmd.Wait()
				close(done)
			}()
			signalled := time.Now()
			for i, sig := range tc.signals {
				if i > 0 {
					time.Sleep(200 * time.Millisecond)
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-done:
			case <-time.After(tc.within):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("stall %s still ran %v after the signal", tc.mode, tc.within)
			}
			took := time.Since(signalled)
			if code := cmd.ProcessState.ExitCode(); code != tc.wantCode {
				t.Errorf("stall %s exited %d after %v, want %d\n%s", tc.mode, code, took, tc.wantCode, &errOut)
			}
			if got := out.String() + errOut.String(); !strings.Contains(got, tc.wantOut) {
				t.Errorf("stall %s said %q, want %q", tc.mode, got, tc.wantOut)
			}
			if _, err := os.Stat(tmp); tc.mode == "read-only" && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("stall read-only ended by a signal left its temporary file: os.Stat(%q) = %v, want it removed", tmp, err)
			}
			if tc.mode == "writes" && len(tc.signals) == 1 && took < 2*time.Second {
				t.Errorf("stall writes exited %v after one signal, want it left to finish its write", took)
			}
		})
	}
}
