package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStream(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "f.db")
	errFill := errors.New("fill failed")
	tests := []struct {
		name    string
		fill    func(io.Writer) error
		perm    os.FileMode
		wantErr error
		want    string
	}{
		{
			name: "new file in a new directory, in several writes",
			fill: func(w io.Writer) error {
				for _, s := range []string{"one ", "two ", "three"} {
					if _, err := io.WriteString(w, s); err != nil {
						return err
					}
				}
				return nil
			},
			perm: 0o600,
			want: "one two three",
		},
		{
			name: "overwrite from a reader",
			fill: func(w io.Writer) error {
				_, err := io.Copy(w, strings.NewReader("four"))
				return err
			},
			perm: 0o644,
			want: "four",
		},
		{
			name: "a failed fill leaves the file as it was",
			fill: func(w io.Writer) error {
				if _, err := io.WriteString(w, "half"); err != nil {
					return err
				}
				return errFill
			},
			perm:    0o600,
			wantErr: errFill,
			want:    "four",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Stream(path, tt.perm, tt.fill); !errors.Is(err, tt.wantErr) {
				t.Fatalf("Stream(%q) = %v, want %v", path, err, tt.wantErr)
			}
			b, err := os.ReadFile(path)
			if err != nil || string(b) != tt.want {
				t.Errorf("Stream(%q) then read = %q, %v, want %q", path, b, err, tt.want)
			}
			if tt.wantErr == nil {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != tt.perm {
					t.Errorf("Stream(%q) mode = %v, want %v", path, fi.Mode().Perm(), tt.perm)
				}
			}
			if diff := cmp.Diff([]string{"f.db"}, names(t, filepath.Dir(path))); diff != "" {
				t.Errorf("Stream(%q) left (-want +got):\n%s", path, diff)
			}
		})
	}
}
