package leader

import (
	"context"
	"log/slog"
)

// quieter hands client-go's own election lines ("Attempting to acquire
// leader lease...") to the logger one level down: its information lines
// become debug lines (strata -v), as the Elector logs every step itself;
// its errors stay errors.
type quieter struct{ slog.Handler }

func (q quieter) Enabled(ctx context.Context, l slog.Level) bool {
	return q.Handler.Enabled(ctx, down(l))
}

func (q quieter) Handle(ctx context.Context, r slog.Record) error {
	r.Level = down(r.Level)
	return q.Handler.Handle(ctx, r)
}

func (q quieter) WithAttrs(attrs []slog.Attr) slog.Handler {
	return quieter{q.Handler.WithAttrs(attrs)}
}

func (q quieter) WithGroup(name string) slog.Handler {
	return quieter{q.Handler.WithGroup(name)}
}

func down(l slog.Level) slog.Level {
	if l < slog.LevelWarn {
		return min(l, slog.LevelDebug)
	}
	return l
}
