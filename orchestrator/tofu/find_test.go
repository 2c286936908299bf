package tofu

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flagBin, envBin, pathBin := mk("flag/tofu"), mk("env/tofu"), mk("path/tofu")
	mk("work/bin/tofu")
	notExec := filepath.Join(dir, "plain")
	os.WriteFile(notExec, nil, 0o644)

	tests := []struct {
		name    string
		flag    string
		env     string
		path    string
		want    string
		wantErr string
	}{
		{"flag first", flagBin, envBin, filepath.Dir(pathBin), flagBin, ""},
		{"then STRATA_TOFU", "", envBin, filepath.Dir(pathBin), envBin, ""},
		{"then PATH", "", "", filepath.Dir(pathBin), pathBin, ""},
		{"then bin/tofu", "", "", filepath.Join(dir, "empty"), filepath.Join(dir, "work", "bin", "tofu"), ""},
		{"a flag that names nothing", filepath.Join(dir, "nope"), envBin, "", "", "find tofu from --tofu"},
		{"a STRATA_TOFU that is not executable", "", notExec, "", "", "is not an executable file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvBinary, tt.env)
			t.Setenv("PATH", tt.path)
			t.Chdir(filepath.Join(dir, "work"))
			got, err := Find(tt.flag)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Find(%q) = %q, %v, want error containing %q", tt.flag, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Find(%q) = %q, %v, want %q", tt.flag, got, err, tt.want)
			}
		})
	}

	t.Run("none anywhere says how to get one", func(t *testing.T) {
		t.Setenv(EnvBinary, "")
		t.Setenv("PATH", "")
		t.Chdir(t.TempDir())
		_, err := Find("")
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "make tofu") {
			t.Errorf("Find(\"\") = %v, want ErrNotFound naming make tofu", err)
		}
	})
}
