package history

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrCorrupt means the history file is damaged: bbolt cannot read it.
var ErrCorrupt = errors.New("the history file is damaged")

// CorruptError is a damaged history file: where it is and what bbolt
// said. It wraps ErrCorrupt.
type CorruptError struct {
	Path  string
	Cause string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%v (%s): move it aside and start a new history with 'strata history ENV --repair'; state and contracts are not touched", ErrCorrupt, e.Cause)
}

func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// corrupt is the error of a damaged file, from a bbolt panic or error.
func corrupt(path string, cause any) error {
	return &CorruptError{Path: path, Cause: fmt.Sprint(cause)}
}

// Repair moves the history file at path aside, to
// path.corrupt-<UTC time>, with its snapshot, so that the next Open starts
// a new, empty history. It returns where the file went. Nothing else under
// the state directory is touched. A missing file is not an error: there
// is nothing to repair, and moved is "".
func Repair(path string, now time.Time) (moved string, err error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	moved = path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	if err := os.Rename(path, moved); err != nil {
		return "", fmt.Errorf("repair history %s: %w", path, err)
	}
	if err := os.Remove(path + SnapshotSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
		return moved, fmt.Errorf("repair history %s: remove its snapshot: %w", path, err)
	}
	return moved, nil
}
