package rendercache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/strata-iac/strata/internal/atomicfile"
	"github.com/strata-iac/strata/internal/realpath"
)

// format is the version of the entry's layout; an entry of another is a
// miss.
const format = 1

// Entry is one render kept: what it was keyed by, what it read, and its
// result.
type Entry struct {
	Format int             `json:"format"`
	Key    string          `json:"key"`
	Inputs []Input         `json:"inputs"`
	Result json.RawMessage `json:"result"`
}

// Read returns the result kept in file when it was rendered under key and
// every input it read is as it was. ok is false on a miss: no entry, an
// entry that does not decode (it is written again), of another key, or
// with an input that changed. err is set only for a file that exists and
// cannot be read; it is a miss too.
//
// A tree read by content because its stat digest was missing or no
// longer matched (its files touched, or written just before the render
// that recorded it) gets the stat digest it has now, and the entry is
// written again with it, so that the next Read takes the stats.
func Read(file, key string) (result []byte, ok bool, err error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read render cache %s: %w", file, err)
	}
	var e Entry
	if json.Unmarshal(b, &e) != nil || e.Format != format || e.Key != key || len(e.Result) == 0 {
		return nil, false, nil
	}
	same, restat := unchanged(e.Inputs)
	if !same {
		return nil, false, nil
	}
	if restat {
		// Only a later Read's speed depends on it: a failed write
		// leaves the entry as it was.
		_ = Write(file, key, e.Inputs, e.Result)
	}
	return e.Result, true, nil
}

// unchanged reports whether every input reads as it was recorded, and
// whether a tree's stat digest was set anew (see same). The inputs are
// read by one goroutine per CPU, most of the time spent in system calls;
// the first change found stops them all. The real paths of the trees'
// directories are resolved once for the whole check (realpath.Cache).
func unchanged(inputs []Input) (same, restat bool) {
	var next atomic.Int64
	var changed, stated atomic.Bool
	var wg sync.WaitGroup
	dirs := &realpath.Cache{}
	for range min(runtime.GOMAXPROCS(0), len(inputs)) {
		wg.Go(func() {
			for !changed.Load() {
				i := int(next.Add(1)) - 1
				if i >= len(inputs) {
					return
				}
				ok, stat := check(inputs[i], dirs)
				if !ok {
					changed.Store(true)
				}
				if stat != "" {
					inputs[i].Stat = stat
					stated.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return !changed.Load(), stated.Load()
}

// check reports whether an input reads as it was recorded: a tree by its
// stats when its stat digest is the same, else by content. stat is the
// stat digest of a tree read by content that has one now, and another
// than it was recorded with.
func check(in Input, dirs *realpath.Cache) (ok bool, stat string) {
	if in.Kind != Tree {
		return probe(in.Kind, in.Path, dirs) == in.Digest, ""
	}
	if in.Stat != "" && treeStat(in.Path, dirs) == in.Stat {
		return true, ""
	}
	d, _, now := treeDigest(in.Path, dirs)
	if d != in.Digest || now == in.Stat {
		return d == in.Digest, ""
	}
	return true, now
}

// Write keeps result, rendered under key from inputs, in file, replacing
// what was there: atomically, mode 0600, its directory created 0700.
func Write(file, key string, inputs []Input, result []byte) error {
	b, err := json.Marshal(Entry{Format: format, Key: key, Inputs: inputs, Result: result})
	if err != nil {
		return fmt.Errorf("write render cache %s: %w", file, err)
	}
	if err := atomicfile.Write(file, b, 0o600); err != nil {
		return fmt.Errorf("write render cache %s: %w", file, err)
	}
	return nil
}
