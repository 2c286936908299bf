package leader

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"

	"github.com/go-logr/logr"

	"github.com/strata-iac/strata/orchestrator/runlog"
)

// TestQuieter logs through logr, as client-go does: information lines are
// debug lines, errors stay errors.
func TestQuieter(t *testing.T) {
	tests := []struct {
		name  string
		level slog.Level
		log   func(l logr.Logger)
		want  string
	}{
		{"info hidden", slog.LevelInfo, func(l logr.Logger) { l.Info("Attempting to acquire leader lease...") }, ""},
		{"info shown with -v", slog.LevelDebug, func(l logr.Logger) { l.Info("Attempting to acquire leader lease...") }, "DEBUG Attempting to acquire leader lease...\n"},
		{"error kept", slog.LevelInfo, func(l logr.Logger) { l.Error(errors.New("forbidden"), "error retrieving resource lock") },
			`ERROR error retrieving resource lock {"err": "forbidden"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.log(logr.FromSlogHandler(quieter{runlog.New(&b, tt.level).Handler()}))
			if got := b.String(); got != tt.want {
				t.Errorf("log(%q) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}
