package jobs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"
)

// maxLine bounds one log line of the runner (tofu's diagnostics can be
// long; the runner never writes a plan or state into its log).
const maxLine = 1 << 20

// OutcomeKey is the one key of the log line that carries the run's
// outcome: {"strataOutcome": {...}}, the runner's last line.
const OutcomeKey = "strataOutcome"

// relay reads the runner's log, one slog JSON record a line, and logs
// each again through log with its time, level, message and attributes,
// in the order written. A line that is not such a record (a panic, a
// line from the Go runtime) is logged as it is, at warning level, with
// the stack, as is a record that names none. The outcome line is not logged: relay returns its value once
// r ends.
func relay(ctx context.Context, r io.Reader, log *slog.Logger, stack string) ([]byte, error) {
	var outcome []byte
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if o, ok := parseOutcome(line); ok {
			outcome = o
			continue
		}
		rec, err := parseRecord(line)
		if err != nil {
			log.LogAttrs(ctx, slog.LevelWarn, string(line), slog.String("stack", stack))
			continue
		}
		if !hasStack(rec) {
			rec.AddAttrs(slog.String("stack", stack))
		}
		if log.Enabled(ctx, rec.Level) {
			_ = log.Handler().Handle(ctx, rec)
		}
	}
	if err := sc.Err(); err != nil {
		return outcome, fmt.Errorf("read runner log: %w", err)
	}
	return outcome, nil
}

// hasStack reports whether the record names its stack.
func hasStack(rec slog.Record) bool {
	found := false
	rec.Attrs(func(a slog.Attr) bool {
		found = a.Key == "stack"
		return !found
	})
	return found
}

// parseOutcome reads the outcome line: a JSON object whose one key is
// OutcomeKey.
func parseOutcome(line []byte) ([]byte, bool) {
	if !bytes.Contains(line, []byte(OutcomeKey)) {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil || len(m) != 1 || m[OutcomeKey] == nil {
		return nil, false
	}
	return m[OutcomeKey], true
}

// WriteOutcome writes the outcome line, for relay to find.
func WriteOutcome(w io.Writer, outcome any) error {
	b, err := json.Marshal(map[string]any{OutcomeKey: outcome})
	if err != nil {
		return fmt.Errorf("write outcome: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// parseRecord reads one line of slog's JSON handler back into a record.
func parseRecord(line []byte) (slog.Record, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return slog.Record{}, errors.New("not a JSON object")
	}
	var (
		when     time.Time
		level    slog.Level
		msg      string
		hasLevel bool
		hasMsg   bool
		attrs    []slog.Attr
	)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return slog.Record{}, err
		}
		key, ok := t.(string)
		if !ok {
			return slog.Record{}, errors.New("not a JSON object")
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return slog.Record{}, err
		}
		switch key {
		case slog.TimeKey:
			if s, ok := v.(string); ok {
				when, _ = time.Parse(time.RFC3339Nano, s)
			}
		case slog.LevelKey:
			s, ok := v.(string)
			if !ok || level.UnmarshalText([]byte(s)) != nil {
				return slog.Record{}, fmt.Errorf("level %v", v)
			}
			hasLevel = true
		case slog.MessageKey:
			if msg, ok = v.(string); !ok {
				return slog.Record{}, fmt.Errorf("message %v", v)
			}
			hasMsg = true
		default:
			attrs = append(attrs, slog.Any(key, plain(v)))
		}
	}
	if _, err := dec.Token(); err != nil {
		return slog.Record{}, err
	}
	if dec.More() {
		return slog.Record{}, errors.New("more than one JSON value")
	}
	if !hasLevel || !hasMsg {
		return slog.Record{}, errors.New("not a log record: no level or message")
	}
	if when.IsZero() {
		when = time.Now()
	}
	rec := slog.NewRecord(when, level, msg, 0)
	rec.AddAttrs(attrs...)
	return rec, nil
}

// plain turns JSON numbers back into int64 when whole, float64 otherwise,
// inside objects and arrays too.
func plain(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case map[string]any:
		for k, e := range v {
			v[k] = plain(e)
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = plain(e)
		}
		return v
	default:
		return v
	}
}

// NewRunnerLogger is the logger `strata runner` writes its run log with:
// slog's JSON records on w, one a line, with durations as text as the
// seed's format prints them, for relay to read back.
func NewRunnerLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Value.Kind() == slog.KindDuration {
				return slog.String(a.Key, a.Value.Duration().String())
			}
			return a
		},
	}))
}
