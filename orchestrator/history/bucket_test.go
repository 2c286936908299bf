package history

import (
	"bytes"
	"testing"
)

func TestKey(t *testing.T) {
	tests := []int{1, 2, 255, 256, 1 << 20}
	for i, n := range tests {
		if got := keyNumber(key(n)); got != n {
			t.Errorf("keyNumber(key(%d)) = %d, want %d", n, got, n)
		}
		if i > 0 && bytes.Compare(key(tests[i-1]), key(n)) >= 0 {
			t.Errorf("key(%d) sorts after key(%d), want before", tests[i-1], n)
		}
	}
	if got := keyNumber([]byte("short")); got != 0 {
		t.Errorf("keyNumber(%q) = %d, want 0", "short", got)
	}
}
