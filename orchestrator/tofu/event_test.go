package tofu

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// A plan's JSON stream announces a change with any of these messages; a
// plan without changes sends none of them.
func TestAnnouncesChange(t *testing.T) {
	tests := []struct {
		name string
		line string
		want bool
	}{
		{"no-op summary", `{"type":"change_summary","changes":{"add":0,"change":0,"import":0,"remove":0,"forget":0,"operation":"plan"}}`, false},
		{"summary with a change", `{"type":"change_summary","changes":{"add":0,"change":1,"remove":0,"operation":"plan"}}`, true},
		{"summary with an import", `{"type":"change_summary","changes":{"import":1,"operation":"plan"}}`, true},
		{"no-op outputs", `{"type":"outputs","outputs":{"o":{"sensitive":false,"action":"noop"}}}`, false},
		{"an output to update", `{"type":"outputs","outputs":{"o":{"action":"noop"},"p":{"action":"update"}}}`, true},
		{"planned change", `{"type":"planned_change","change":{"resource":{"addr":"terraform_data.a"},"action":"update"}}`, true},
		{"drift", `{"type":"resource_drift","change":{"resource":{"addr":"terraform_data.a"},"action":"update"}}`, true},
		{"refresh", `{"type":"refresh_complete","hook":{"resource":{"addr":"terraform_data.a"}}}`, false},
		{"version", `{"type":"version","tofu":"1.10.6","ui":"1.2"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := decodeEvent([]byte(tt.line))
			if !ok {
				t.Fatalf("decodeEvent(%q) did not decode", tt.line)
			}
			if got := announcesChange(e); got != tt.want {
				t.Errorf("announcesChange(%q) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
}

// FuzzDecodeEvent feeds arbitrary lines to the JSON stream's decoder and
// to the change check: neither may panic, and a line that decodes has a
// type. The same bytes written in two parts, cut anywhere, are the same
// events as written whole.
func FuzzDecodeEvent(f *testing.F) {
	f.Add([]byte(`{"type":"change_summary","changes":{"add":0,"change":0,"remove":0,"operation":"plan"}}`))
	f.Add([]byte(`{"type":"outputs","outputs":{"o":{"sensitive":false,"action":"noop"}}}`))
	f.Add([]byte(`{"type":"outputs","outputs":{"o":null}}`))
	f.Add([]byte(`{"type":"diagnostic","diagnostic":{"severity":"error","summary":"x","range":{"filename":"main.tf","start":{"line":2}}}}`))
	f.Add([]byte("{\"type\":\"version\"}\n{\"type\":\"outputs\",\"outputs\":{\"o\":{\"action\":\"update\"}}}\r\n{\"type\":\"x\"}"))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, ok := decodeEvent(line)
		if ok && e.Type == "" {
			t.Errorf("decodeEvent(%q) = an event without a type", line)
		}
		_ = announcesChange(e)
		var whole, parts []Event
		w := newEventWriter(func(e Event) { whole = append(whole, e) })
		w.Write(line)
		changed := w.changed()
		cut := len(line) / 3
		w = newEventWriter(func(e Event) { parts = append(parts, e) })
		w.Write(line[:cut])
		w.Write(line[cut:])
		if c := w.changed(); c != changed {
			t.Errorf("Write(%q) in two parts: changed() = %v, want %v", line, c, changed)
		}
		if diff := cmp.Diff(whole, parts); diff != "" {
			t.Errorf("Write(%q) in two parts: events (-whole +parts):\n%s", line, diff)
		}
	})
}

// streamWithLongLines is a plan's real JSON stream followed by a warning
// longer than any read buffer, an error, and a last line without its
// newline, and the types of the events in it.
func streamWithLongLines(t *testing.T, name string) ([]byte, []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, `{"@level":"warn","type":"diagnostic","diagnostic":{"severity":"warning","summary":"long","detail":"`+strings.Repeat("x", 40<<10)+`"}}`+"\n"...)
	b = append(b, `{"@level":"error","type":"diagnostic","diagnostic":{"severity":"error","summary":"broken","detail":"it broke"}}`+"\r\n"...)
	b = append(b, `{"type":"change_summary","changes":{"add":0,"change":0,"remove":0,"operation":"plan"}}`...)
	var types []string
	for _, line := range bytes.Split(b, []byte("\n")) {
		if e, ok := decodeEvent(bytes.TrimSpace(line)); ok {
			types = append(types, e.Type)
		}
	}
	return b, types
}

// However tofu's stream reaches the writer, in one write, a byte at a
// time, through ReadFrom or from a command's stdout, every line is one
// event, whole, in order.
func TestEventWriterStream(t *testing.T) {
	deliveries := []struct {
		name    string
		deliver func(t *testing.T, w *eventWriter, stream []byte)
	}{
		{"one write", func(t *testing.T, w *eventWriter, stream []byte) { w.Write(stream) }},
		{"a byte a write", func(t *testing.T, w *eventWriter, stream []byte) {
			for i := range stream {
				w.Write(stream[i : i+1])
			}
		}},
		{"ReadFrom, a byte a read", func(t *testing.T, w *eventWriter, stream []byte) {
			if n, err := w.ReadFrom(iotest.OneByteReader(bytes.NewReader(stream))); n != int64(len(stream)) || err != nil {
				t.Fatalf("ReadFrom() = %d, %v, want %d, nil", n, err, len(stream))
			}
		}},
		{"ReadFrom, half reads", func(t *testing.T, w *eventWriter, stream []byte) {
			if _, err := w.ReadFrom(iotest.HalfReader(bytes.NewReader(stream))); err != nil {
				t.Fatalf("ReadFrom() = %v", err)
			}
		}},
		{"a command's stdout", func(t *testing.T, w *eventWriter, stream []byte) {
			path := filepath.Join(t.TempDir(), "stream")
			if err := os.WriteFile(path, stream, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("cat", path)
			cmd.Stdout = w
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, file := range []struct {
		name    string
		changed bool
	}{{"plan-no-changes.jsonl", false}, {"plan-changes.jsonl", true}} {
		stream, want := streamWithLongLines(t, file.name)
		for _, d := range deliveries {
			t.Run(file.name+"/"+d.name, func(t *testing.T) {
				var got []string
				var long int
				w := newEventWriter(func(e Event) {
					got = append(got, e.Type)
					if e.Diagnostic != nil && e.Diagnostic.Summary == "long" {
						long = len(e.Diagnostic.Detail)
					}
				})
				d.deliver(t, w, stream)
				if c := w.changed(); c != file.changed {
					t.Errorf("changed() = %v, want %v", c, file.changed)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("event types (-want +got):\n%s", diff)
				}
				if long != 40<<10 {
					t.Errorf("the long warning's detail = %d bytes, want %d", long, 40<<10)
				}
				if err := w.wrap(errors.New("exit status 1")); err == nil || err.Error() != "broken: it broke" {
					t.Errorf("wrap(exit status 1) = %v, want broken: it broke", err)
				}
			})
		}
	}
}

// A command's output is copied through ReadFrom, in a buffer the writers
// share, not through a copy buffer of 32 KiB made for each command (what
// io.Copy makes for a writer that reads nothing itself).
func TestEventWriterCopyAllocates(t *testing.T) {
	stream, _ := streamWithLongLines(t, "plan-no-changes.jsonl")
	stream = stream[:bytes.Index(stream, []byte(`{"@level":"warn"`))]
	path := filepath.Join(t.TempDir(), "stream")
	if err := os.WriteFile(path, stream, 0o600); err != nil {
		t.Fatal(err)
	}
	const runs = 50
	copyOnce := func() {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w := newEventWriter(nil)
		if _, err := io.Copy(w, f); err != nil {
			t.Fatal(err)
		}
	}
	copyOnce()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		copyOnce()
	}
	runtime.ReadMemStats(&after)
	// Decoding the stream's 12 events takes about 6 KB; a copy buffer
	// would add 32 KiB.
	if got := (after.TotalAlloc - before.TotalAlloc) / runs; got >= 16<<10 {
		t.Errorf("io.Copy(eventWriter, %d-byte file) allocated %d bytes a copy, want under %d", len(stream), got, 16<<10)
	}
}
