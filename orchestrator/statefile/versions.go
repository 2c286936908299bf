package statefile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/strata-iac/strata/internal/atomicfile"
	"github.com/strata-iac/strata/internal/filestat"
)

// Versions keeps, for the local state files of one environment, the
// version last read from each with the stat the file had then, so that a
// reconcile that finds a state file's stat unchanged takes the version
// without reading the file: every tick reads every stack's state to see
// whether it changed outside strata. A file is kept only when it last
// changed well before it was read (filestat.Racy); the stat is taken
// before the read, so a change made while it is read is seen by the next.
// What it keeps is a cache: lost or corrupt, the files are read again.
// It is safe for concurrent use.
type Versions struct {
	file  string
	mu    sync.Mutex
	kept  map[string]keptVersion
	dirty bool
}

// keptVersion is a state file's version and the stat it was read with.
type keptVersion struct {
	Stat    string `json:"stat"`
	Serial  uint64 `json:"serial"`
	Lineage string `json:"lineage"`
}

// versionsFormat is the layout of a Versions file; another is empty.
const versionsFormat = 1

// versionsFile is a Versions file.
type versionsFile struct {
	Format int                    `json:"format"`
	States map[string]keptVersion `json:"states"`
}

// LoadVersions reads the Versions kept in file; none when it does not
// exist or cannot be read.
func LoadVersions(file string) *Versions {
	v := &Versions{file: file, kept: map[string]keptVersion{}}
	b, err := os.ReadFile(file)
	if err != nil {
		return v
	}
	var f versionsFile
	if json.Unmarshal(b, &f) == nil && f.Format == versionsFormat && f.States != nil {
		v.kept = f.States
	}
	return v
}

// ReadLocal is ReadLocal of the state file at path, which it does not
// read when its stat is the one its kept version was read with.
func (v *Versions) ReadLocal(path string) (Version, bool, error) {
	start := time.Now()
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		v.forget(path)
		return Version{}, false, nil
	}
	sig, changed, ok := "", time.Time{}, false
	if err == nil && fi.Mode().IsRegular() {
		sig, changed, ok = filestat.Signature(fi)
	}
	if ok {
		v.mu.Lock()
		k, found := v.kept[path]
		v.mu.Unlock()
		if found && k.Stat == sig {
			return Version{Serial: k.Serial, Lineage: k.Lineage}, true, nil
		}
	}
	ver, exists, err := ReadLocal(path)
	switch {
	case err != nil || !exists:
		v.forget(path)
	case ok && !filestat.Racy(changed, start):
		v.mu.Lock()
		v.kept[path] = keptVersion{Stat: sig, Serial: ver.Serial, Lineage: ver.Lineage}
		v.dirty = true
		v.mu.Unlock()
	}
	return ver, exists, err
}

// forget lets go of what is kept of path.
func (v *Versions) forget(path string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, ok := v.kept[path]; ok {
		delete(v.kept, path)
		v.dirty = true
	}
}

// Save writes what is kept back to its file when it changed, atomically,
// mode 0600 (atomicfile makes its directory, 0700).
func (v *Versions) Save() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.dirty {
		return nil
	}
	b, err := json.Marshal(versionsFile{Format: versionsFormat, States: v.kept})
	if err != nil {
		return fmt.Errorf("save state versions %s: %w", v.file, err)
	}
	if err := atomicfile.Write(v.file, b, 0o600); err != nil {
		return fmt.Errorf("save state versions %s: %w", v.file, err)
	}
	v.dirty = false
	return nil
}
