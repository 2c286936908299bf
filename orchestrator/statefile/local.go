package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ReadLocal reads the version of the state file at path. It reports false
// when there is no state file (nothing applied yet, or it was deleted).
func ReadLocal(path string) (Version, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Version{}, false, nil
	}
	if err != nil {
		return Version{}, false, fmt.Errorf("read state %s: %w", path, err)
	}
	v, err := Parse(data)
	if err != nil {
		return Version{}, false, fmt.Errorf("read state %s: %w", path, err)
	}
	return v, true, nil
}
