package tofu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Event is one message of tofu's machine-readable UI (`-json`).
type Event struct {
	Level   string
	Message string
	// Type is the message type: "apply_complete", "apply_errored",
	// "change_summary", "diagnostic", "planned_change", …
	Type string
	// Resource, Action, IDKey, IDValue and Elapsed describe a resource hook
	// (apply_start, apply_complete, …).
	Resource string
	Action   string
	IDKey    string
	IDValue  string
	Elapsed  float64
	// Summary is set on change_summary messages.
	Summary *Summary
	// Outputs is set on outputs messages: each root output's action
	// ("noop", "create", "update", "delete") or, after an apply, "".
	Outputs map[string]string
	// Diagnostic is set on diagnostic messages.
	Diagnostic *Diagnostic
}

// Summary counts the resource changes of a plan or an apply.
type Summary struct {
	Add    int `json:"add"`
	Change int `json:"change"`
	Remove int `json:"remove"`
	Import int `json:"import,omitempty"`
	Forget int `json:"forget,omitempty"`
	// Operation is "plan", "apply" or "destroy".
	Operation string `json:"operation,omitempty"`
}

// SummaryStateLocked is the summary of the diagnostic tofu reports when
// another process holds the state lock.
const SummaryStateLocked = "Error acquiring the state lock"

// Diagnostic is an error or warning reported by tofu.
type Diagnostic struct {
	Severity string
	Summary  string
	Detail   string
	Address  string
	File     string
	Line     int
}

// String renders the diagnostic on one line.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.Summary)
	if d.Detail != "" {
		b.WriteString(": ")
		b.WriteString(strings.Join(strings.Fields(d.Detail), " "))
	}
	if d.File != "" {
		fmt.Fprintf(&b, " (%s line %d)", d.File, d.Line)
	}
	if d.Address != "" {
		fmt.Fprintf(&b, " [%s]", d.Address)
	}
	return b.String()
}

type rawEvent struct {
	Level   string `json:"@level"`
	Message string `json:"@message"`
	Type    string `json:"type"`
	Hook    struct {
		Resource struct {
			Addr string `json:"addr"`
		} `json:"resource"`
		Action  string  `json:"action"`
		IDKey   string  `json:"id_key"`
		IDValue string  `json:"id_value"`
		Elapsed float64 `json:"elapsed_seconds"`
	} `json:"hook"`
	Changes *Summary `json:"changes"`
	Outputs map[string]struct {
		Action string `json:"action"`
	} `json:"outputs"`
	Diagnostic *struct {
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail"`
		Address  string `json:"address"`
		Range    *struct {
			Filename string `json:"filename"`
			Start    struct {
				Line int `json:"line"`
			} `json:"start"`
		} `json:"range"`
	} `json:"diagnostic"`
}

func decodeEvent(line []byte) (Event, bool) {
	var r rawEvent
	if err := json.Unmarshal(line, &r); err != nil || r.Type == "" {
		return Event{}, false
	}
	e := Event{
		Level:    r.Level,
		Message:  r.Message,
		Type:     r.Type,
		Resource: r.Hook.Resource.Addr,
		Action:   r.Hook.Action,
		IDKey:    r.Hook.IDKey,
		IDValue:  r.Hook.IDValue,
		Elapsed:  r.Hook.Elapsed,
		Summary:  r.Changes,
	}
	if r.Outputs != nil {
		e.Outputs = make(map[string]string, len(r.Outputs))
		for name, o := range r.Outputs {
			e.Outputs[name] = o.Action
		}
	}
	if d := r.Diagnostic; d != nil {
		e.Diagnostic = &Diagnostic{Severity: d.Severity, Summary: d.Summary, Detail: d.Detail, Address: d.Address}
		if d.Range != nil {
			e.Diagnostic.File = d.Range.Filename
			e.Diagnostic.Line = d.Range.Start.Line
		}
	}
	return e, true
}

// eventWriter splits tofu's -json stream into lines and hands each decoded
// event to fn. It also keeps the error diagnostics, so that a failed command
// reports what tofu said rather than just an exit status.
type eventWriter struct {
	fn func(Event)

	mu     sync.Mutex
	buf    bytes.Buffer
	errors []Diagnostic
	// changes is set by any message that announces a change.
	changes bool
}

func newEventWriter(fn func(Event)) *eventWriter {
	if fn == nil {
		fn = func(Event) {}
	}
	return &eventWriter{fn: fn}
}

// Write handles each whole line of p, and keeps a last partial line for
// the next write.
func (w *eventWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.buf.Write(p)
			return n, nil
		}
		if w.buf.Len() == 0 {
			w.handle(p[:i])
		} else {
			w.buf.Write(p[:i])
			w.handle(w.buf.Bytes())
			w.buf.Reset()
		}
		p = p[i+1:]
	}
}

// ReadFrom reads tofu's stream from r to its end, as Write takes it. With
// it os/exec copies a command's output through a buffer of readBufs
// rather than one of 32 KiB made for each command.
func (w *eventWriter) ReadFrom(r io.Reader) (int64, error) {
	buf := readBufs.Get().(*[]byte)
	defer readBufs.Put(buf)
	var n int64
	for {
		m, err := r.Read(*buf)
		if m > 0 {
			n += int64(m)
			w.Write((*buf)[:m])
		}
		switch {
		case err == io.EOF:
			return n, nil
		case err != nil:
			return n, err
		}
	}
}

// readBufs are the buffers ReadFrom reads into: one for each command
// running at once.
var readBufs = sync.Pool{New: func() any {
	b := make([]byte, 16<<10)
	return &b
}}

func (w *eventWriter) handle(line []byte) {
	e, ok := decodeEvent(bytes.TrimSpace(line))
	if !ok {
		return
	}
	if e.Diagnostic != nil && e.Diagnostic.Severity == "error" {
		w.errors = append(w.errors, *e.Diagnostic)
	}
	if announcesChange(e) {
		w.changes = true
	}
	w.fn(e)
}

// announcesChange reports whether a plan message says the plan changes
// something: a planned or drifted resource, a change summary that counts
// anything, or a root output that is not a no-op.
func announcesChange(e Event) bool {
	switch e.Type {
	case "planned_change", "resource_drift":
		return true
	case "change_summary":
		return e.Summary != nil && *e.Summary != (Summary{Operation: e.Summary.Operation})
	case "outputs":
		for _, action := range e.Outputs {
			if action != "noop" {
				return true
			}
		}
	}
	return false
}

// changed reports whether any message so far announced a change.
func (w *eventWriter) changed() bool {
	w.flush()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changes
}

// flush handles a last line that had no newline.
func (w *eventWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() > 0 {
		w.handle(w.buf.Bytes())
		w.buf.Reset()
	}
}

// wrap turns a failed command's error into one that carries tofu's own
// error diagnostics.
func (w *eventWriter) wrap(err error) error {
	w.flush()
	if err == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.errors) == 0 {
		return err
	}
	msgs := make([]string, 0, len(w.errors))
	for _, d := range w.errors {
		msgs = append(msgs, d.String())
	}
	return &Error{Diagnostics: append([]Diagnostic(nil), w.errors...), msg: strings.Join(msgs, "; "), err: err}
}

// Error is a tofu command that failed with error diagnostics.
type Error struct {
	Diagnostics []Diagnostic
	msg         string
	err         error
}

func (e *Error) Error() string { return e.msg }
func (e *Error) Unwrap() error { return e.err }
