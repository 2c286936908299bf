package runlog

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"
)

func TestHandler(t *testing.T) {
	tests := []struct {
		name string
		log  func(l *slog.Logger)
		want string
	}{
		{
			name: "seed line with attributes",
			log: func(l *slog.Logger) {
				l.Info("run #1 started", "operation", "apply", "mode", "auto", "version", "0.2.0")
			},
			want: `INFO run #1 started {"operation": "apply", "mode": "auto", "version": "0.2.0"}` + "\n",
		},
		{
			name: "stack prefix from With",
			log: func(l *slog.Logger) {
				l.With("stack", "network").Info("plan: 1 to add, 0 to change, 0 to destroy")
			},
			want: "INFO [network] plan: 1 to add, 0 to change, 0 to destroy\n",
		},
		{
			name: "stack prefix from the record, duration",
			log: func(l *slog.Logger) {
				l.Warn("slow", "stack", "api", "took", 1500*time.Millisecond)
			},
			want: `WARN [api] slow {"took": "1.5s"}` + "\n",
		},
		{
			name: "the run number is not printed",
			log: func(l *slog.Logger) {
				l.With("stack", "api", "run", 3).Info("run #3 started", "mode", "auto")
			},
			want: `INFO [api] run #3 started {"mode": "auto"}` + "\n",
		},
		{
			name: "an error is its message",
			log: func(l *slog.Logger) {
				l.Info("failed to renew lease", "err", fmt.Errorf("renew: %w", context.DeadlineExceeded))
			},
			want: `INFO failed to renew lease {"err": "renew: context deadline exceeded"}` + "\n",
		},
		{
			name: "debug is filtered",
			log:  func(l *slog.Logger) { l.Debug("hidden") },
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.log(New(&b, slog.LevelInfo))
			if got := b.String(); got != tt.want {
				t.Errorf("Handle(%q) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}
