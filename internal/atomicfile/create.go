package atomicfile

import (
	"os"
)

// CreateIn makes a new file name inside root, with the given permissions,
// holding what fill writes to it. It never replaces a file: when name
// exists, the error wraps fs.ErrExist and the file there is unchanged, so
// of two writers of one name exactly one succeeds. An error from fill
// leaves nothing behind. The directory of name must exist.
func CreateIn(root *os.Root, name string, perm os.FileMode, fill func(*os.File) error) error {
	return publish(root, name, perm, fill, root.Link)
}
