package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteRusage(t *testing.T) {
	t.Run("unset writes nothing", func(t *testing.T) {
		t.Setenv(envRusageFile, "")
		if err := writeRusage(); err != nil {
			t.Errorf("writeRusage() = %v, want nil", err)
		}
	})
	t.Run("set writes strata's own usage", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "rusage.json")
		t.Setenv(envRusageFile, p)
		if err := writeRusage(); err != nil {
			t.Fatalf("writeRusage() = %v, want nil", err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var got rusage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("writeRusage() wrote %q: %v", b, err)
		}
		// A running test has used some CPU and holds some memory.
		if got.SelfCPUSeconds <= 0 || got.SelfMaxRSSKiB <= 0 || got.ChildrenCPUSeconds < 0 {
			t.Errorf("writeRusage() = %+v, want positive CPU and peak RSS", got)
		}
	})
	t.Run("a file that cannot be written is an error", func(t *testing.T) {
		t.Setenv(envRusageFile, filepath.Join(t.TempDir(), "missing", "rusage.json"))
		if err := writeRusage(); err == nil {
			t.Errorf("writeRusage() = nil, want an error")
		}
	})
}
