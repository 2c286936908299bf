package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestStartProfile(t *testing.T) {
	t.Run("unset profiles nothing", func(t *testing.T) {
		t.Setenv(envProfileDir, "")
		stop, err := startProfile()
		if err != nil {
			t.Fatalf("startProfile() = %v, want nil", err)
		}
		if err := stop(); err != nil {
			t.Errorf("stop() = %v, want nil", err)
		}
	})
	t.Run("set writes every profile", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "profiles")
		t.Setenv(envProfileDir, dir)
		stop, err := startProfile()
		if err != nil {
			t.Fatalf("startProfile() = %v, want nil", err)
		}
		var keep [][]byte
		for i := range 1000 {
			keep = append(keep, bytes.Repeat([]byte{byte(i)}, 4096))
		}
		if err := stop(); err != nil {
			t.Fatalf("stop() = %v, want nil", err)
		}
		_ = keep
		// pprof profiles are gzipped; an execution trace starts with its
		// version header.
		gzipped := []byte{0x1f, 0x8b}
		want := map[string][]byte{
			"cpu.pprof":       gzipped,
			"heap.pprof":      gzipped,
			"allocs.pprof":    gzipped,
			"peak-heap.pprof": gzipped,
			"trace.out":       []byte("go 1."),
		}
		for name, prefix := range want {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Errorf("startProfile() wrote no %s: %v", name, err)
				continue
			}
			if !bytes.HasPrefix(b, prefix) {
				t.Errorf("startProfile() wrote %s starting %q, want %q", name, b[:min(len(b), 8)], prefix)
			}
		}
	})
	t.Run("a directory that cannot be made is an error", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv(envProfileDir, filepath.Join(file, "profiles"))
		if _, err := startProfile(); err == nil {
			t.Errorf("startProfile() = nil, want an error")
		}
	})
}
