package testkit

import (
	"strings"
	"sync"
	"testing"
)

func TestBuffer(t *testing.T) {
	tests := []struct {
		name    string
		writers int
		line    string
	}{
		{"empty", 0, "x\n"},
		{"one writer", 1, "line\n"},
		{"concurrent writers", 8, "a whole line\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Buffer
			var wg sync.WaitGroup
			for range tt.writers {
				wg.Go(func() {
					for range 100 {
						if _, err := b.Write([]byte(tt.line)); err != nil {
							t.Errorf("Write(%q) = %v", tt.line, err)
						}
						_ = b.String()
					}
				})
			}
			wg.Wait()
			want := strings.Repeat(tt.line, tt.writers*100)
			if got := b.String(); got != want {
				t.Errorf("String() = %d bytes, want %d bytes of whole lines", len(got), len(want))
			}
		})
	}
}
