package regularfile

import (
	"errors"
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
