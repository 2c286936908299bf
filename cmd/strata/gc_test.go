package main

import (
	"runtime/debug"
	"testing"
)

func TestGCSetting(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		wantPercent int
		wantSet     bool
	}{
		{name: "neither set", env: nil, wantPercent: gcPercent, wantSet: true},
		{name: "GOGC set", env: map[string]string{"GOGC": "100"}, wantSet: false},
		{name: "GOGC off", env: map[string]string{"GOGC": "off"}, wantSet: false},
		{name: "GOMEMLIMIT set", env: map[string]string{"GOMEMLIMIT": "64MiB"}, wantSet: false},
		{name: "both set", env: map[string]string{"GOGC": "200", "GOMEMLIMIT": "1GiB"}, wantSet: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			percent, set := gcSetting(func(k string) string { return tt.env[k] })
			if percent != tt.wantPercent || set != tt.wantSet {
				t.Errorf("gcSetting(%v) = %d, %v, want %d, %v", tt.env, percent, set, tt.wantPercent, tt.wantSet)
			}
		})
	}
}

// TestSetGC applies the setting to this process, with neither variable
// set, and reads it back.
func TestSetGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	setGC()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("after setGC() the GC percent is %d, want %d", got, gcPercent)
	}
	t.Setenv("GOGC", "100")
	setGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after setGC() with GOGC=100 the GC percent is %d, want 100 (the user's)", got)
	}
}
