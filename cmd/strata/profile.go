package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"time"
)

// envProfileDir names a directory strata writes profiles of its own run
// to, for finding where time and memory go (see
// docs/performance.md): cpu.pprof, trace.out, peak-heap.pprof (the heap
// when the live heap was largest, sampled every 20ms), and heap.pprof
// and allocs.pprof at exit. Unset, nothing is profiled.
const envProfileDir = "STRATA_PROFILE_DIR"

// startProfile starts the CPU profile and the execution trace when
// $STRATA_PROFILE_DIR is set, and returns the function that stops them and
// writes the memory profiles.
func startProfile() (stop func() error, err error) {
	dir := os.Getenv(envProfileDir)
	if dir == "" {
		return func() error { return nil }, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("profile to %s: %w", dir, err)
	}
	cpu, err := os.Create(filepath.Join(dir, "cpu.pprof"))
	if err != nil {
		return nil, fmt.Errorf("profile to %s: %w", dir, err)
	}
	tr, err := os.Create(filepath.Join(dir, "trace.out"))
	if err != nil {
		cpu.Close()
		return nil, fmt.Errorf("profile to %s: %w", dir, err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		cpu.Close()
		tr.Close()
		return nil, fmt.Errorf("profile to %s: %w", dir, err)
	}
	if err := trace.Start(tr); err != nil {
		pprof.StopCPUProfile()
		cpu.Close()
		tr.Close()
		return nil, fmt.Errorf("profile to %s: %w", dir, err)
	}
	done := make(chan struct{})
	peak := make(chan error, 1)
	go func() { peak <- watchPeakHeap(filepath.Join(dir, "peak-heap.pprof"), done) }()
	return func() error {
		close(done)
		errs := []error{<-peak}
		trace.Stop()
		pprof.StopCPUProfile()
		errs = append(errs, tr.Close(), cpu.Close())
		runtime.GC()
		for _, name := range []string{"heap", "allocs"} {
			errs = append(errs, writeProfile(filepath.Join(dir, name+".pprof"), name))
		}
		if err := errors.Join(errs...); err != nil {
			return fmt.Errorf("profile to %s: %w", dir, err)
		}
		return nil
	}, nil
}

// writeProfile writes the named runtime profile to path.
func writeProfile(path, name string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// watchPeakHeap writes the heap profile to path whenever the live heap
// (as of the last collection) is larger than at any earlier sample: one
// now, one every 20ms and a last one when done is closed.
func watchPeakHeap(path string, done <-chan struct{}) error {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	most := uint64(0)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for last := false; ; {
		metrics.Read(sample)
		if live := sample[0].Value.Uint64(); live > most || most == 0 {
			most = max(live, 1)
			if err := writeProfile(path, "heap"); err != nil {
				return err
			}
		}
		if last {
			return nil
		}
		select {
		case <-done:
			last = true
		case <-tick.C:
		}
	}
}
