//go:build unix

package change

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkDiff diffs a repository of 6 environments (3 clients × dev and
// prod) where a version bump in the shared _versions.yaml changes every
// stack, the most a diff renders and compares: 102 stacks in all, 17 an
// environment (BENCH_DIFF_PER_ENV sets another count). Target: at most 2 s,
// with no tofu process (Diff starts none). It reports the slowest diff's
// wall time and the CPU time a diff takes, which the machine's load does
// not stretch; the target fails on the CPU time, since 2 CPUs shared by
// other work stretch the wall time past anything strata does.
func BenchmarkDiff(b *testing.B) {
	perEnvs := []int{17}
	if v, err := strconv.Atoi(os.Getenv("BENCH_DIFF_PER_ENV")); err == nil && v > 0 {
		perEnvs = []int{v}
	}
	for _, perEnv := range perEnvs {
		b.Run(fmt.Sprintf("%d-stacks", perEnv*6), func(b *testing.B) {
			root := fleetRepo(b, []string{"acme", "beta", "gamma"}, perEnv)
			bumpFile(b, root+"/shared/versions/_versions.yaml")
			var worst, cpu time.Duration
			n := 0
			for b.Loop() {
				start, startCPU := time.Now(), cpuTime(b)
				d := diffAt(b, root, "main")
				worst = max(worst, time.Since(start))
				cpu += cpuTime(b) - startCPU
				n++
				if got := countStacks(d); got != perEnv*6 {
					b.Fatalf("Diff lists %d stacks, want %d", got, perEnv*6)
				}
			}
			b.ReportMetric(worst.Seconds(), "worst-wall-s")
			b.ReportMetric((cpu / time.Duration(n)).Seconds(), "cpu-s/op")
			if perEnv <= 17 && cpu/time.Duration(n) > 2*time.Second {
				b.Errorf("the diff of %d stacks in 6 environments took %s of CPU, want at most 2s", perEnv*6, cpu/time.Duration(n))
			}
		})
	}
}

// cpuTime is the CPU time this process and the children it waited for
// (git) have used.
func cpuTime(b *testing.B) time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			b.Fatal(err)
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total
}

func bumpFile(b testing.TB, file string) {
	b.Helper()
	body := readFile(b, file)
	writeFile(b, "/", file, strings.ReplaceAll(body, `"0.1.0"`, `"0.2.0"`))
}

func countStacks(d *Report) int {
	n := 0
	for _, e := range d.Environments {
		n += len(e.Stacks)
	}
	return n
}
