package jobs

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/runlog"
)

// TestRelay writes lines with the runner's logger, relays them into the
// seed's format, and compares with what runlog prints for the same lines
// logged in process.
func TestRelay(t *testing.T) {
	tests := []struct {
		name string
		log  func(*slog.Logger)
		// extra is appended to the runner's output as it is.
		extra string
		want  string
	}{
		{
			name: "run lines",
			log: func(l *slog.Logger) {
				l = l.With("stack", "network", "run", 2)
				l.Info("run #2 started", "operation", "apply", "mode", "auto", "version", "0.1.0")
				l.Info("plan: 0 to add, 1 to change, 0 to destroy")
				l.Warn("the state is locked", "age", 1500*time.Millisecond)
				l.Error("run #2 failed", "error", errors.New("tofu plan: exit status 1"))
			},
			want: `INFO [network] run #2 started {"operation": "apply", "mode": "auto", "version": "0.1.0"}
INFO [network] plan: 0 to add, 1 to change, 0 to destroy
WARN [network] the state is locked {"age": "1.5s"}
ERROR [network] run #2 failed {"error": "tofu plan: exit status 1"}
`,
		},
		{
			name: "numbers and objects",
			log: func(l *slog.Logger) {
				l.Info("published contract /configuration/network", "stack", "network",
					"public", []string{"cidr", "vpc_id"}, "count", 3, "ratio", 0.5)
			},
			want: `INFO [network] published contract /configuration/network {"public": ["cidr","vpc_id"], "count": 3, "ratio": 0.5}
`,
		},
		{
			name:  "a line that is no record",
			extra: "panic: runtime error\n\n{\"msg\": \"no level\"}\n",
			want: `WARN [api] panic: runtime error
WARN [api] {"msg": "no level"}
`,
		},
		{
			name: "debug lines stay below the level",
			log: func(l *slog.Logger) {
				l.Debug("tofu init", "stack", "api")
				l.Info("run #1 started", "stack", "api")
			},
			want: "INFO [api] run #1 started\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pod bytes.Buffer
			if tt.log != nil {
				tt.log(NewRunnerLogger(&pod))
			}
			pod.WriteString(tt.extra)
			var got bytes.Buffer
			if _, err := relay(context.Background(), &pod, runlog.New(&got, nil), "api"); err != nil {
				t.Fatalf("relay() = %v, want nil", err)
			}
			if diff := cmp.Diff(tt.want, got.String()); diff != "" {
				t.Errorf("relay() wrote (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRelayOutcome(t *testing.T) {
	tests := []struct {
		name string
		log  string
		want string
		out  string
	}{
		{"the last line", "{\"level\":\"INFO\",\"msg\":\"run #1 finished\",\"stack\":\"network\"}\n{\"strataOutcome\":{\"result\":\"applied\"}}\n",
			`{"result":"applied"}`, "INFO [network] run #1 finished\n"},
		{"none: the runner died", "{\"level\":\"INFO\",\"msg\":\"run #1 started\",\"stack\":\"network\"}\n",
			"", "INFO [network] run #1 started\n"},
		{"a record with the key among others is a record", "{\"level\":\"INFO\",\"msg\":\"m\",\"strataOutcome\":1}\n",
			"", "INFO [network] m {\"strataOutcome\": 1}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got bytes.Buffer
			outcome, err := relay(context.Background(), strings.NewReader(tt.log), runlog.New(&got, nil), "network")
			if err != nil || string(outcome) != tt.want {
				t.Errorf("relay(%q) = %s, %v, want %s", tt.log, outcome, err, tt.want)
			}
			if got.String() != tt.out {
				t.Errorf("relay(%q) logged %q, want %q", tt.log, got.String(), tt.out)
			}
		})
	}
	var line bytes.Buffer
	if err := WriteOutcome(&line, map[string]string{"result": "held"}); err != nil {
		t.Fatal(err)
	}
	if o, ok := parseOutcome(bytes.TrimSpace(line.Bytes())); !ok || string(o) != `{"result":"held"}` {
		t.Errorf("parseOutcome(%q) = %s, %v, want the outcome WriteOutcome wrote", line.String(), o, ok)
	}
}

func TestRelayKeepsRunKey(t *testing.T) {
	var pod bytes.Buffer
	NewRunnerLogger(&pod).Info("run #4 started", "stack", "network", runlog.RunKey, 4)
	var seen []slog.Attr
	h := &recordingHandler{attrs: &seen}
	if _, err := relay(context.Background(), &pod, slog.New(h), "network"); err != nil {
		t.Fatal(err)
	}
	want := []string{"stack=network", "run=4"}
	var got []string
	for _, a := range seen {
		got = append(got, a.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("relayed attributes (-want +got):\n%s", diff)
	}
}

// recordingHandler keeps the attributes of the records it handles.
type recordingHandler struct{ attrs *[]slog.Attr }

func (h *recordingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *recordingHandler) WithGroup(string) slog.Handler            { return h }
func (h *recordingHandler) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool { *h.attrs = append(*h.attrs, a); return true })
	return nil
}

func FuzzParseRecord(f *testing.F) {
	var seed bytes.Buffer
	l := NewRunnerLogger(&seed)
	l.Info("run #1 started", "stack", "a", "run", 1, "d", time.Second)
	l.Warn("x", "m", map[string]any{"k": []any{1, "b"}})
	for _, line := range strings.Split(strings.TrimSpace(seed.String()), "\n") {
		f.Add([]byte(line))
	}
	f.Add([]byte(`{"level":"INFO","msg":"a"} {}`))
	f.Add([]byte(`{"level":7,"msg":"a"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, err := parseRecord(line)
		if err != nil {
			return
		}
		// A record read back writes and reads again to the same record.
		var buf bytes.Buffer
		if err := NewRunnerLogger(&buf).Handler().Handle(context.Background(), rec); err != nil {
			t.Fatalf("write record %q: %v", line, err)
		}
		again, err := parseRecord(bytes.TrimSpace(buf.Bytes()))
		if err != nil {
			t.Fatalf("parseRecord(%q) = %v after it read %q", buf.Bytes(), err, line)
		}
		if again.Message != rec.Message || again.Level != rec.Level || again.NumAttrs() != rec.NumAttrs() {
			t.Errorf("parseRecord(%q) = %q %v %d attrs, want %q %v %d attrs",
				buf.Bytes(), again.Message, again.Level, again.NumAttrs(), rec.Message, rec.Level, rec.NumAttrs())
		}
	})
}
