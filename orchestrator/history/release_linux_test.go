package history

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestRelease reads every stack's head from a history of many stacks and
// looks at what of the file the process has mapped, in /proc/self/smaps:
// nothing right after every releaseEvery-th transaction, and the pages a
// read maps between.
func TestRelease(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	const stacks = 400
	for i := range stacks {
		finish(t, s, begin(t, s, "acme", "prod", fmt.Sprintf("stack-%03d", i)), ResultApplied)
	}
	// Up to the next release, then every head, each read a transaction.
	for s.releaser.txs.Load()%releaseEvery != 0 {
		if _, err := s.Stacks(ctx, "acme", "prod"); err != nil {
			t.Fatalf("Stacks() = %v, want nil", err)
		}
	}
	if got := mappedKiB(t, path); got != 0 {
		t.Fatalf("after %d transactions %s has %d KiB of its file mapped, want 0", s.releaser.txs.Load(), path, got)
	}
	var most int64
	for i := range stacks {
		if _, err := s.Head(ctx, "acme", "prod", fmt.Sprintf("stack-%03d", i)); err != nil {
			t.Fatalf("Head(stack-%03d) = %v, want nil", i, err)
		}
		kib := mappedKiB(t, path)
		if s.releaser.txs.Load()%releaseEvery == 0 && kib != 0 {
			t.Fatalf("after the release at transaction %d %s has %d KiB of its file mapped, want 0", s.releaser.txs.Load(), path, kib)
		}
		most = max(most, kib)
	}
	if most == 0 {
		t.Errorf("reading %d heads mapped none of %s: the test reads nothing", stacks, path)
	}
}

// mappedKiB sums the resident memory of this process's mappings of the
// file at path.
func mappedKiB(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var kib int64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && fields[len(fields)-1] == path
			continue
		}
		if in && len(fields) >= 2 && fields[0] == "Rss:" {
			n, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				t.Fatalf("read /proc/self/smaps: %q: %v", line, err)
			}
			kib += n
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read /proc/self/smaps: %v", err)
	}
	return kib
}
