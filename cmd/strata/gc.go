package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the Go collector's target strata runs with: the heap may
// grow to 1.35 times what was live after the last collection, not twice.
// A reconcile's live heap is small (8–12 MB at 1,000 stacks, about half of
// it the libraries' initialisation) and it allocates mostly short-lived
// data, so collecting sooner keeps the peak anonymous memory about a
// third lower than the default's for a little CPU. 35 is where both hold
// at 100 and at 1,000 stacks: 25 took 2 MiB more off the peak at 1,000
// stacks but cost about 1 ms a stack of a drift check at 100 (docs/performance.md). It scales with the environment, as a fixed memory limit
// would not: a limit a larger environment's live heap passes makes the
// collector run without pause.
const gcPercent = 35

// gcSetting is the collector target strata sets, and false when the user
// set GOGC or GOMEMLIMIT in strata's environment: theirs stands, as the Go
// runtime read it.
func gcSetting(getenv func(string) string) (int, bool) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return 0, false
	}
	return gcPercent, true
}

// setGC applies gcSetting to the running process.
func setGC() {
	if percent, ok := gcSetting(os.Getenv); ok {
		debug.SetGCPercent(percent)
	}
}
