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

// RunKey is the attribute that numbers the run of the stack a line
// belongs to. Handler does not print it: the run's lines say their number
// where it matters ("run #2 started"); Files uses it to keep each run's
// lines apart.
const RunKey = "run"

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
		switch a.Key {
		case StackKey:
			c.stack = a.Value.String()
			continue
		case RunKey:
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
	line := h.format(r)
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := h.w.Write(line)
	return err
}

// format renders one line, newline included.
func (h *Handler) format(r slog.Record) []byte {
	var b bytes.Buffer
	b.WriteString(r.Level.String())
	b.WriteByte(' ')
	stack := h.stack
	attrs := append([]slog.Attr(nil), h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case StackKey:
			stack = a.Value.String()
		case RunKey:
		default:
			attrs = append(attrs, a)
		}
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
	return b.Bytes()
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
		// An error's fields are mostly unexported: print its message.
		if err, ok := v.Any().(error); ok {
			return err.Error()
		}
		return v.Any()
	}
}
