package helperbin

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	prog := Program{Name: "strata-helperbin-test", Env: "STRATA_HELPERBIN_TEST", Does: "tests with"}
	onPath := t.TempDir()
	exe := filepath.Join(onPath, prog.Name)
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), prog.Name)
	tests := []struct {
		name    string
		env     string
		path    string // $PATH
		want    string
		wantErr []string
	}{
		{name: "$Env names the file", env: exe, path: t.TempDir(), want: exe},
		{name: "$Env names no file", env: missing, path: onPath,
			wantErr: []string{"$STRATA_HELPERBIN_TEST (" + missing + ": no such file or directory)", "make build"}},
		{name: "found on $PATH", path: onPath, want: exe},
		{name: "nowhere", path: t.TempDir(),
			wantErr: []string{"strata-helperbin-test, the program strata tests with, is not installed", "$STRATA_HELPERBIN_TEST (not set)", "(beside strata)", "$PATH", "set $STRATA_HELPERBIN_TEST to it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(prog.Env, tt.env)
			t.Setenv("PATH", tt.path)
			got, err := prog.Find()
			if tt.wantErr == nil {
				if err != nil || got != tt.want {
					t.Fatalf("Find() = %q, %v, want %q", got, err, tt.want)
				}
				return
			}
			var nf *NotFoundError
			if !errors.As(err, &nf) {
				t.Fatalf("Find() = %q, %v, want a *NotFoundError", got, err)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Find() = %q, want it to say %q", err, w)
				}
			}
		})
	}
}
