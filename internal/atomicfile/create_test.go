package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCreateIn(t *testing.T) {
	errFill := errors.New("fill failed")
	tests := []struct {
		name     string
		existing string // content already at "f", if any
		fill     func(*os.File) error
		wantErr  error
		want     string // content of "f" after
	}{
		{
			name: "new file",
			fill: func(f *os.File) error { _, err := f.WriteString("new"); return err },
			want: "new",
		},
		{
			name:     "never replaces",
			existing: "old",
			fill:     func(f *os.File) error { _, err := f.WriteString("new"); return err },
			wantErr:  fs.ErrExist,
			want:     "old",
		},
		{
			name:    "fill fails",
			fill:    func(f *os.File) error { f.WriteString("half"); return errFill },
			wantErr: errFill,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if tt.existing != "" {
				if err := os.WriteFile(path, []byte(tt.existing), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			err = CreateIn(root, "f", 0o644, tt.fill)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("CreateIn(%q) = %v, want %v", "f", err, tt.wantErr)
			}
			b, rerr := os.ReadFile(path)
			if tt.want == "" {
				if !errors.Is(rerr, fs.ErrNotExist) {
					t.Errorf("CreateIn(%q) then read = %q, %v, want no file", "f", b, rerr)
				}
			} else if string(b) != tt.want {
				t.Errorf("CreateIn(%q) then read = %q, %v, want %q", "f", b, rerr, tt.want)
			}
			var want []string
			if tt.want != "" {
				want = []string{"f"}
			}
			if diff := cmp.Diff(want, names(t, dir)); diff != "" {
				t.Errorf("CreateIn(%q) left (-want +got):\n%s", "f", diff)
			}
		})
	}
}
