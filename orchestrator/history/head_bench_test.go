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

// BenchmarkReconcileReads reads what a reconcile reads of the history of
// 1,000 stacks with 5 runs each, from a file just opened (read-only, so
// that nothing of it is mapped yet): the environment's stacks and each
// stack's head, or, as a reconcile did before the heads, the stacks from
// the environment's bucket and each stack's last run, last plan or apply
// and last good run. It reports how much of the file is then
// resident in this process (resident-KiB/op: bbolt maps the file, and the
// kernel maps the pages around each page read) and the file's size
// (file-KiB).
func BenchmarkReconcileReads(b *testing.B) {
	const stacks = 1_000
	path := benchHistoryOf(b, stacks, 5*stacks)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	reads := []struct {
		name  string
		heads bool
		read  func(s *Store, stack string) error
	}{
		{"heads", true, func(s *Store, stack string) error {
			h, err := s.Head(ctx, "acme", "dev", stack)
			if err == nil && (h.Good.Number == 0 || h.Ran.Number == 0) {
				err = fmt.Errorf("Head(%s) = %+v, want a last run and a good one", stack, h)
			}
			return err
		}},
		{"runs", false, func(s *Store, stack string) error {
			if _, _, err := s.Last(ctx, "acme", "dev", stack); err != nil {
				return err
			}
			if _, _, err := s.LastMatching(ctx, "acme", "dev", stack, notUnlock); err != nil {
				return err
			}
			_, ok, err := s.LastGood(ctx, "acme", "dev", stack)
			if err == nil && !ok {
				err = fmt.Errorf("LastGood(%s) = none, want one", stack)
			}
			return err
		}},
	}
	for _, rd := range reads {
		b.Run(rd.name, func(b *testing.B) {
			b.ReportAllocs()
			var resident int
			for b.Loop() {
				s, err := Open(ctx, path, ReadOnly())
				if err != nil {
					b.Fatal(err)
				}
				s.heads = rd.heads
				names, err := s.Stacks(ctx, "acme", "dev")
				if err != nil || len(names) != stacks {
					b.Fatalf("Stacks(acme/dev) = %d stacks, %v, want %d", len(names), err, stacks)
				}
				for _, name := range names {
					if err := rd.read(s, name); err != nil {
						b.Fatal(err)
					}
				}
				kib, err := residentKiB(path)
				if err != nil {
					b.Fatal(err)
				}
				resident += kib
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(resident)/float64(b.N), "resident-KiB/op")
			b.ReportMetric(float64(fi.Size()/1024), "file-KiB")
		})
	}
}

// residentKiB is how much of the file at path this process's mappings
// hold resident, from /proc/self/smaps.
func residentKiB(path string) (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var (
		kib  int
		ours bool
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":"):
			// A mapping's first line: range, perms, offset, dev, inode, path.
			ours = len(fields) >= 6 && fields[5] == path
		case ours && len(fields) == 3 && fields[0] == "Rss:":
			n, err := strconv.Atoi(fields[1])
			if err != nil {
				return 0, fmt.Errorf("smaps %q: %w", sc.Text(), err)
			}
			kib += n
		}
	}
	return kib, sc.Err()
}
