package regularfile

import (
	"errors"
	"fmt"
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
	return readFile(path, max, 0)
}

// ReadFileNoFollow is ReadFile of a path that is no symbolic link itself:
// one that is fails with syscall.ELOOP (the links of its directories are
// followed), for a caller that resolves links its own way.
func ReadFileNoFollow(path string, max int64) ([]byte, error) {
	return readFile(path, max, syscall.O_NOFOLLOW)
}

// readFile is ReadFile, opening path with flags added. It reads with the
// system's calls rather than an *os.File: for a regular file, an
// *os.File costs five more calls (to try the file in the runtime's
// poller, and to set and reset it non-blocking), a third of the calls of
// a load that reads 20,000 small files.
func readFile(path string, max int64, flags int) ([]byte, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC|flags, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		// Said as a stat of the path says it (a pipe it leads to
		// included), the file being open still.
		fi, err := os.Stat(path)
		if flags&syscall.O_NOFOLLOW != 0 {
			fi, err = os.Lstat(path)
		}
		if err != nil {
			return nil, err
		}
		return nil, regular(path, fi)
	}
	if max > 0 && st.Size > max {
		return nil, tooLarge(path, st.Size, max)
	}
	// One byte more than its size, so that a file that grew since fills
	// the buffer, and is read on to its end (or to one byte over max). A
	// read short of the buffer that leaves the file at its size is at
	// its end, as a regular file's reads are short only there: the read
	// that would say so, a third of a small file's calls, is left out.
	b := make([]byte, 0, st.Size+1)
	for {
		if max > 0 && int64(len(b)) > max {
			return nil, tooLarge(path, int64(len(b)), max)
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		room := b[len(b):cap(b)]
		if max > 0 && int64(len(b)+len(room)) > max+1 {
			room = room[:max+1-int64(len(b))]
		}
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = syscall.Read(fd, room)
			return err
		})
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return b, nil
		}
		b = b[:len(b)+n]
		if n < len(room) && int64(len(b)) == st.Size {
			return b, nil
		}
	}
}

// ignoringEINTR calls f until it is not interrupted by a signal.
func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
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
