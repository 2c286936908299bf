package filestat

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSignature: a file's signature is the same while it is left alone,
// and another once it is written, even with the same size.
func TestSignature(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	sig := func() string {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		s, _, ok := Signature(fi)
		if !ok {
			t.Skip("no stat signature on this system")
		}
		return s
	}
	first := sig()
	if again := sig(); again != first {
		t.Errorf("Signature() of an untouched file = %q, then %q", first, again)
	}
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if after := sig(); after == first {
		t.Errorf("Signature() after a write of the same size = %q, the same as before", after)
	}
}

func TestRacy(t *testing.T) {
	start := time.Now()
	tests := []struct {
		name    string
		changed time.Time
		want    bool
	}{
		{"changed long before", start.Add(-time.Hour), false},
		{"changed within the window", start.Add(-Window / 2), true},
		{"changed after the read began", start.Add(time.Millisecond), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Racy(tt.changed, start); got != tt.want {
				t.Errorf("Racy(%v, start) = %v, want %v", start.Sub(tt.changed), got, tt.want)
			}
		})
	}
}
