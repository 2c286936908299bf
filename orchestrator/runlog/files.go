package runlog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Files is a slog.Handler that keeps each run's lines in a file of its
// own, <dir>/<stack>/<run>.log, in the run log format: the lines that
// carry both the stack (StackKey) and the run number (RunKey). Other lines
// are not kept. Files are appended to; a run's file is removed
// (RemoveRunLog) when the history lets its run go, and not before: like
// the history, they are the record of what ran.
type Files struct {
	dir    string
	format *Handler
	run    int
	mu     *sync.Mutex
}

// NewFiles returns a Files handler writing under dir lines at level and
// above (slog.LevelInfo when level is nil).
func NewFiles(dir string, level slog.Leveler) *Files {
	return &Files{dir: dir, format: NewHandler(nil, level), mu: &sync.Mutex{}}
}

// RunLogFile is the file Files keeps the lines of one run in.
func RunLogFile(dir, stack string, run int) string {
	return filepath.Join(dir, stack, strconv.Itoa(run)+".log")
}

// Enabled reports whether lines at l are kept.
func (f *Files) Enabled(ctx context.Context, l slog.Level) bool { return f.format.Enabled(ctx, l) }

// WithAttrs returns a handler that adds attrs to every line.
func (f *Files) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *f
	for _, a := range attrs {
		if a.Key == RunKey {
			c.run = runNumber(a.Value)
		}
	}
	c.format = f.format.WithAttrs(attrs).(*Handler)
	return &c
}

// WithGroup is not used by strata's run logs; groups are flattened.
func (f *Files) WithGroup(string) slog.Handler { return f }

// Handle appends the line to its run's file.
func (f *Files) Handle(_ context.Context, r slog.Record) error {
	stack, run := f.format.stack, f.run
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case StackKey:
			stack = a.Value.String()
		case RunKey:
			run = runNumber(a.Value)
		}
		return true
	})
	if stack == "" || run <= 0 || !filepath.IsLocal(stack) {
		return nil
	}
	path := RunLogFile(f.dir, stack, run)
	line := f.format.format(r)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("keep run log of %s #%d: %w", stack, run, err)
	}
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("keep run log of %s #%d: %w", stack, run, err)
	}
	_, err = file.Write(line)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("keep run log of %s #%d: %w", stack, run, err)
	}
	return nil
}

func runNumber(v slog.Value) int {
	v = v.Resolve()
	switch v.Kind() {
	case slog.KindInt64:
		return int(v.Int64())
	case slog.KindUint64:
		return int(v.Uint64())
	}
	n, _ := strconv.Atoi(v.String())
	return n
}

// RemoveRunLog removes the file of one run's lines, if there is one: a
// run's log goes with its run, when the history lets the run go.
func RemoveRunLog(dir, stack string, run int) error {
	if !filepath.IsLocal(stack) {
		return nil
	}
	path := RunLogFile(dir, stack, run)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove run log of %s #%d: %w", stack, run, err)
	}
	return nil
}
