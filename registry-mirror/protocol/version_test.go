package protocol

import (
	"errors"
	"testing"
)

func TestCheckVersion(t *testing.T) {
	tests := []struct {
		v    string
		want bool
	}{
		{"1.2.3", true},
		{"0.0.0", true},
		{"1.2.3-rc.1", true},
		{"1.2.3-beta-2.x", true},
		{"v1.2.3", false},
		{"1.2", false},
		{"01.2.3", false},
		{"1.2.3+build", false},
		{"1.2.3-RC.1", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.v, func(t *testing.T) {
			err := CheckVersion(tt.v)
			if (err == nil) != tt.want || (err != nil && !errors.Is(err, ErrInvalid)) {
				t.Errorf("CheckVersion(%q) = %v, want valid %v (errors wrap ErrInvalid)", tt.v, err, tt.want)
			}
		})
	}
}
