package runlog

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	log := slog.New(slog.NewMultiHandler(NewFiles(dir, nil), NewHandler(&discard{}, nil)))
	log.Info("apply acme/dev: 2 stacks")
	net := log.With(StackKey, "network")
	net.Info("up to date: nothing changed")
	run := net.With(RunKey, 2)
	run.Info("run #2 started", "operation", "apply")
	run.Warn("plan: delete terraform_data.vpc")
	log.Info("run #1 started", StackKey, "api", RunKey, 1)
	run.Info("run #2 finished in 0.2s: the infrastructure is up to date")
	log.With(StackKey, "../escape", RunKey, 1).Info("never kept")

	tests := []struct {
		stack string
		run   int
		want  string
	}{
		{"network", 2, "INFO [network] run #2 started {\"operation\": \"apply\"}\n" +
			"WARN [network] plan: delete terraform_data.vpc\n" +
			"INFO [network] run #2 finished in 0.2s: the infrastructure is up to date\n"},
		{"api", 1, "INFO [api] run #1 started\n"},
	}
	for _, tt := range tests {
		t.Run(tt.stack, func(t *testing.T) {
			b, err := os.ReadFile(RunLogFile(dir, tt.stack, tt.run))
			if err != nil {
				t.Fatalf("ReadFile(RunLogFile(%q, %d)) = %v", tt.stack, tt.run, err)
			}
			if diff := cmp.Diff(tt.want, string(b)); diff != "" {
				t.Errorf("RunLogFile(%q, %d) diff (-want +got):\n%s", tt.stack, tt.run, diff)
			}
		})
	}
	var files []string
	err := filepath.WalkDir(filepath.Dir(dir), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"api/1.log", "network/2.log"}, files); diff != "" {
		t.Errorf("files kept diff (-want +got):\n%s", diff)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestRemoveRunLog(t *testing.T) {
	dir := t.TempDir()
	log := slog.New(NewFiles(dir, nil))
	log.Info("run #1 started", StackKey, "network", RunKey, 1)
	log.Info("run #2 started", StackKey, "network", RunKey, 2)
	tests := []struct {
		name  string
		stack string
		run   int
	}{
		{"a run's log", "network", 1},
		{"again: nothing to remove", "network", 1},
		{"a run without a log", "network", 7},
		{"no stack outside the directory", "../network", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := RemoveRunLog(dir, tt.stack, tt.run); err != nil {
				t.Errorf("RemoveRunLog(%q, %d) = %v, want nil", tt.stack, tt.run, err)
			}
		})
	}
	if _, err := os.Stat(RunLogFile(dir, "network", 1)); !os.IsNotExist(err) {
		t.Errorf("Stat(run #1's log) = %v, want no such file", err)
	}
	if _, err := os.Stat(RunLogFile(dir, "network", 2)); err != nil {
		t.Errorf("Stat(run #2's log) = %v, want it kept", err)
	}
}
