package main

import (
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"time"
)

// envRusageFile names a file strata writes its resource usage to when it
// exits, for the benchmark (.ci/bench.sh): strata's own CPU time and peak
// resident memory, apart from those of the tofu processes it ran.
const envRusageFile = "STRATA_RUSAGE_FILE"

// rusage is strata's resource usage, as written to $STRATA_RUSAGE_FILE.
type rusage struct {
	// SelfCPUSeconds is strata's own user and system CPU time.
	SelfCPUSeconds float64 `json:"selfCPUSeconds"`
	// ChildrenCPUSeconds is that of the processes it ran (tofu).
	ChildrenCPUSeconds float64 `json:"childrenCPUSeconds"`
	// SelfMaxRSSKiB is strata's own peak resident set size.
	SelfMaxRSSKiB int64 `json:"selfMaxRSSKiB"`
}

// writeRusage writes strata's resource usage to $STRATA_RUSAGE_FILE, when
// it is set.
func writeRusage() error {
	path := os.Getenv(envRusageFile)
	if path == "" {
		return nil
	}
	var self, children syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		return fmt.Errorf("write %s: %w", envRusageFile, err)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children); err != nil {
		return fmt.Errorf("write %s: %w", envRusageFile, err)
	}
	b, err := json.Marshal(rusage{
		SelfCPUSeconds:     cpu(self),
		ChildrenCPUSeconds: cpu(children),
		SelfMaxRSSKiB:      self.Maxrss, // kilobytes on Linux
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", envRusageFile, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", envRusageFile, err)
	}
	return nil
}

func cpu(r syscall.Rusage) float64 {
	return (time.Duration(r.Utime.Nano()) + time.Duration(r.Stime.Nano())).Seconds()
}
