package recovered

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// panics panics with value when it is set, catching it as what, and
// says what it returned.
func panics(what string, value any) (err error) {
	defer Catch(&err, what)
	if value != nil {
		panic(value)
	}
	return errors.New("returned")
}

func TestCatch(t *testing.T) {
	tests := []struct {
		name  string
		what  string
		value any
		want  string
		stack bool
	}{
		{name: "no panic", what: "load environment x", want: "returned"},
		{name: "a panic with a string", what: "load environment x", value: "boom", want: "load environment x: panicked: boom (a bug in strata: the log has its stack)", stack: true},
		{name: "nothing to wrap with", value: "boom", want: "panicked: boom (a bug in strata: the log has its stack)", stack: true},
		{name: "a runtime error", what: "load environment x", value: errors.New("index out of range [1] with length 1"), want: "load environment x: panicked: index out of range [1] with length 1 (a bug in strata: the log has its stack)", stack: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := panics(tt.what, tt.value)
			if err == nil || err.Error() != tt.want {
				t.Errorf("panics(%q, %v) = %v, want %q", tt.what, tt.value, err, tt.want)
			}
			stack := Stack(err)
			if got := bytes.Contains(stack, []byte("recovered.panics")); got != tt.stack {
				t.Errorf("Stack(panics(%q, %v)) names the panicking function = %v, want %v; stack:\n%s", tt.what, tt.value, got, tt.stack, stack)
			}
		})
	}
}

func TestLog(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	Log(log, errors.New("plain"))
	if buf.Len() != 0 {
		t.Errorf("Log(plain error) wrote %q, want nothing", buf.String())
	}
	Log(log, panics("load environment x", "boom"))
	if got := buf.String(); !strings.Contains(got, "stack trace of the panic: load environment x: panicked: boom") || !strings.Contains(got, "recovered.panics") {
		t.Errorf("Log(panic) wrote %q, want the message and the trace", got)
	}
}
