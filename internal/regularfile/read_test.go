package regularfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.yaml")
	if err := os.WriteFile(file, []byte("a: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{"link.yaml", "file.yaml"}, {"pipe-link.yaml", "pipe.yaml"}, {"loop-a.yaml", "loop-b.yaml"}, {"loop-b.yaml", "loop-a.yaml"}, {"dangling.yaml", "absent.yaml"}} {
		if err := os.Symlink(l[1], filepath.Join(dir, l[0])); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		max     int64
		want    string
		wantErr error
		errText string
	}{
		{name: "file.yaml", want: "a: b\n"},
		{name: "file.yaml", max: 5, want: "a: b\n"},
		{name: "file.yaml", max: 4, wantErr: ErrTooLarge, errText: "5 bytes, more than 4"},
		{name: "link.yaml", want: "a: b\n"},
		{name: "pipe.yaml", wantErr: ErrNotRegular, errText: "a named pipe (FIFO)"},
		{name: "pipe-link.yaml", wantErr: ErrNotRegular, errText: "a named pipe (FIFO)"},
		{name: ".", wantErr: ErrNotRegular, errText: "a directory"},
		{name: "loop-a.yaml", wantErr: syscall.ELOOP},
		{name: "dangling.yaml", wantErr: os.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var got []byte
			var err error
			go func() {
				defer close(done)
				got, err = ReadFile(filepath.Join(dir, tc.name), tc.max)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("ReadFile(%q) still blocked after 10s", tc.name)
			}
			if tc.wantErr == nil {
				if err != nil || string(got) != tc.want {
					t.Errorf("ReadFile(%q) = %q, %v, want %q", tc.name, got, err, tc.want)
				}
				return
			}
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.errText) {
				t.Errorf("ReadFile(%q) = %v, want %v saying %q", tc.name, err, tc.wantErr, tc.errText)
			}
			if fi, serr := Stat(filepath.Join(dir, tc.name)); tc.wantErr != ErrTooLarge && (!errors.Is(serr, tc.wantErr) || (serr == nil) != (fi != nil)) {
				t.Errorf("Stat(%q) = %v, %v, want %v and a FileInfo with no error", tc.name, fi, serr, tc.wantErr)
			}
			if cerr := Check(filepath.Join(dir, tc.name)); tc.wantErr != ErrTooLarge && !errors.Is(cerr, tc.wantErr) {
				t.Errorf("Check(%q) = %v, want %v", tc.name, cerr, tc.wantErr)
			}
		})
	}
}

// TestReadFileNoFollow: a path that is a symbolic link fails with ELOOP,
// whatever it leads to; a link among its directories is followed; the
// rest reads as ReadFile reads it.
func TestReadFileNoFollow(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real", "file.yaml"), []byte("a: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "real", "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{"link.yaml", "real/file.yaml"}, {"linked", "real"}} {
		if err := os.Symlink(l[1], filepath.Join(dir, l[0])); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		want    string
		wantErr error
		errText string
	}{
		{name: "real/file.yaml", want: "a: b\n"},
		{name: "linked/file.yaml", want: "a: b\n"},
		{name: "link.yaml", wantErr: syscall.ELOOP},
		{name: "real/pipe.yaml", wantErr: ErrNotRegular, errText: "a named pipe (FIFO)"},
		{name: "real/absent.yaml", wantErr: os.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadFileNoFollow(filepath.Join(dir, tc.name), 0)
			if tc.wantErr == nil {
				if err != nil || string(got) != tc.want {
					t.Errorf("ReadFileNoFollow(%q) = %q, %v, want %q", tc.name, got, err, tc.want)
				}
				return
			}
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.errText) {
				t.Errorf("ReadFileNoFollow(%q) = %v, want %v saying %q", tc.name, err, tc.wantErr, tc.errText)
			}
		})
	}
}

// TestReadFileSizes: a file is read whole whatever its size, and a limit
// holds to the byte.
func TestReadFileSizes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		size, max int64
		tooLarge  bool
	}{
		{size: 0},
		{size: 1},
		{size: 511},
		{size: 512},
		{size: 513},
		{size: 1 << 20},
		{size: 1 << 20, max: 1 << 20},
		{size: 1<<20 + 1, max: 1 << 20, tooLarge: true},
		{size: 0, max: 1},
		{size: 2, max: 1, tooLarge: true},
	} {
		name := fmt.Sprintf("%d bytes, max %d", tc.size, tc.max)
		t.Run(name, func(t *testing.T) {
			want := bytes.Repeat([]byte("abcdefg\n"), int(tc.size/8)+1)[:tc.size]
			file := filepath.Join(dir, "f")
			if err := os.WriteFile(file, want, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(file, tc.max)
			if tc.tooLarge {
				if !errors.Is(err, ErrTooLarge) {
					t.Errorf("ReadFile(%s) = %d bytes, %v, want %v", name, len(got), err, ErrTooLarge)
				}
				return
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("ReadFile(%s) = %d bytes, %v, want the file's %d", name, len(got), err, len(want))
			}
		})
	}
}
