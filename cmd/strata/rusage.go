package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
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
	// SelfFileRSSKiB is the part of strata's resident set, at exit, that
	// is pages of files (its own binary, mostly): shared with every other
	// strata process and reclaimable, unlike its heap. 0 where the system
	// does not say.
	SelfFileRSSKiB int64 `json:"selfFileRSSKiB"`
	// SelfBinaryRSSKiB is the part of SelfFileRSSKiB that is strata's own
	// executable, at exit; the rest is other mapped files, such as the
	// history database. 0 where the system does not say.
	SelfBinaryRSSKiB int64 `json:"selfBinaryRSSKiB"`
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
		SelfFileRSSKiB:     fileRSS("/proc/self/status"),
		SelfBinaryRSSKiB:   binaryRSS("/proc/self/smaps"),
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

// binaryRSS sums the Rss lines of the mappings of a /proc/<pid>/smaps file
// that map strata's own executable, in KiB; 0 when the file is missing or
// the executable cannot be named.
func binaryRSS(smaps string) int64 {
	exe, err := os.Executable()
	if err != nil {
		return 0
	}
	b, err := os.ReadFile(smaps)
	if err != nil {
		return 0
	}
	return mappedRSS(b, exe)
}

// mappedRSS sums, in KiB, the Rss lines of the mappings of path in the
// text of a smaps file.
func mappedRSS(smaps []byte, path string) int64 {
	var sum int64
	mine := false
	sc := bufio.NewScanner(bytes.NewReader(smaps))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		switch {
		case len(f) >= 5 && bytes.IndexByte(f[0], '-') > 0 && !bytes.HasSuffix(f[0], []byte(":")):
			// A mapping's header: address range, permissions, offset,
			// device, inode, then the path when it maps a file.
			mine = len(f) >= 6 && string(bytes.Join(f[5:], []byte(" "))) == path
		case mine && len(f) == 3 && string(f[0]) == "Rss:" && string(f[2]) == "kB":
			if n, err := strconv.ParseInt(string(f[1]), 10, 64); err == nil {
				sum += n
			}
		}
	}
	return sum
}

// fileRSS reads the RssFile line of a /proc/<pid>/status file, in KiB; 0
// when the file or the line is missing.
func fileRSS(status string) int64 {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 3 && string(f[0]) == "RssFile:" && string(f[2]) == "kB" {
			n, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err != nil {
				return 0
			}
			return n
		}
	}
	return 0
}
