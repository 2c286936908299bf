package runlog

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
)

// StackKey is the attribute that names the stack a line is about.
const StackKey = "stack"

// Handler is a slog.Handler that writes run log lines.
type Handler struct {
	level slog.Leveler
	mu    *sync.Mutex
	w     io.Writer
	stack string
	attrs []slog.Attr
}

// NewHandler returns a Handler writing to w lines at level and above
// (slog.LevelInfo when level is nil).
func NewHandler(w io.Writer, level slog.Leveler) *Handler {
	if level == nil {
		level = slog.LevelInfo
	}
	return &Handler{level: level, mu: &sync.Mutex{}, w: w}
}

// New returns a logger writing run log lines to w.
func New(w io.Writer, level slog.Leveler) *slog.Logger {
	return slog.New(NewHandler(w, level))
}

// Enabled reports whether lines at l are written.
func (h *Handler) Enabled(_ context.Context, l slog.Level) bool {
	return l >= h.level.Level()
}

// WithAttrs returns a handler that adds attrs to every line.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append([]slog.Attr(nil), h.attrs...)
	for _, a := range attrs {
		if a.Key == StackKey {
			c.stack = a.Value.String()
			continue
		}
		c.attrs = append(c.attrs, a)
	}
	return &c
}

// WithGroup is not used by strata's run logs; groups are flattened.
func (h *Handler) WithGroup(string) slog.Handler { return h }

// Handle writes one line.
func (h *Handler) Handle(_ context.Context, r slog.Record) error {
	var b bytes.Buffer
	b.WriteString(r.Level.String())
	b.WriteByte(' ')
	stack := h.stack
	attrs := append([]slog.Attr(nil), h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == StackKey {
			stack = a.Value.String()
			return true
		}
		attrs = append(attrs, a)
		return true
	})
	if stack != "" {
		b.WriteByte('[')
		b.WriteString(stack)
		b.WriteString("] ")
	}
	b.WriteString(r.Message)
	if len(attrs) > 0 {
		b.WriteByte(' ')
		writeObject(&b, attrs)
	}
	b.WriteByte('\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := h.w.Write(b.Bytes())
	return err
}

// writeObject writes attrs as a JSON object in the seed's spacing:
// {"key": "value", "n": 1}.
func writeObject(b *bytes.Buffer, attrs []slog.Attr) {
	b.WriteByte('{')
	for i, a := range attrs {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(a.Key)
		b.Write(k)
		b.WriteString(": ")
		v, err := json.Marshal(value(a.Value.Resolve()))
		if err != nil {
			v, _ = json.Marshal(a.Value.String())
		}
		b.Write(v)
	}
	b.WriteByte('}')
}

func value(v slog.Value) any {
	switch v.Kind() {
	case slog.KindDuration:
		return v.Duration().String()
	case slog.KindTime:
		return v.Time().UTC().Format("2006-01-02T15:04:05Z07:00")
	case slog.KindGroup:
		m := map[string]any{}
		for _, a := range v.Group() {
			m[a.Key] = value(a.Value.Resolve())
		}
		return m
	default:
		return v.Any()
	}
}
