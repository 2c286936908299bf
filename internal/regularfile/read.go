package regularfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is the error, wrapped in an *fs.PathError, of a path that
// is no regular file: a directory, a named pipe, a device or a socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error, wrapped in an *fs.PathError, of a file larger
// than the limit it was read with.
var ErrTooLarge = errors.New("larger than the limit")

// ReadFile reads the regular file at path, following symbolic links, and
// at most max bytes of it (no limit when max <= 0). A path that is
// something else fails with ErrNotRegular, saying what it is, without
// blocking: a named pipe nobody writes to included.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	var r io.Reader = f
	if max > 0 {
		if fi.Size() > max {
			return nil, tooLarge(path, fi.Size(), max)
		}
		r = io.LimitReader(f, max+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if max > 0 && int64(len(b)) > max {
		return nil, tooLarge(path, int64(len(b)), max)
	}
	return b, nil
}

// Check reports, without opening it, whether path leads to a regular file:
// nil when it does, ErrNotRegular saying what it is when it does not, or
// the error of the stat (a symbolic link loop, a dangling link).
func Check(path string) error {
	_, err := Stat(path)
	return err
}

// Stat is Check that also returns what the stat found of a regular file.
func Stat(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	return fi, nil
}

// regular is nil for a regular file, else ErrNotRegular naming what fi is.
func regular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it is %s", ErrNotRegular, What(fi.Mode()))}
}

// tooLarge is the ErrTooLarge of a file of size bytes read with limit max.
func tooLarge(path string, size, max int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %d bytes, more than %d", ErrTooLarge, size, max)}
}

// What names the kind of file a mode is, for a person.
func What(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return "an irregular file"
	}
}
