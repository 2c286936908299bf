package decryption

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResponseErrors: each kind of error a decryption returns crosses the
// protocol as it was: a *KeyError with its fields, ErrMalformed, another
// error's message.
func TestResponseErrors(t *testing.T) {
	ke := &KeyError{Recipients: []string{"age age1x", "pgp ABCD"}, Sources: []string{"$SOPS_AGE_KEY"}, Problems: []string{"a: b"}}
	tests := []struct {
		name string
		err  error
	}{
		{name: "key", err: ke},
		{name: "malformed", err: ErrMalformed},
		{name: "other", err: errors.New("read sops metadata: no sops metadata")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var line bytes.Buffer
			if err := WriteLine(&line, NewResponse(nil, true, tt.err)); err != nil {
				t.Fatal(err)
			}
			resp, err := DecodeResponse(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
			if err != nil {
				t.Fatalf("DecodeResponse(%s) = %v", line.Bytes(), err)
			}
			got := resp.Err()
			if got == nil || got.Error() != tt.err.Error() {
				t.Errorf("Err() = %v, want %v", got, tt.err)
			}
			var gotKE *KeyError
			if errors.As(tt.err, new(*KeyError)) {
				if !errors.As(got, &gotKE) {
					t.Fatalf("Err() = %T, want a *KeyError", got)
				}
				if diff := cmp.Diff(ke, gotKE); diff != "" {
					t.Errorf("KeyError mismatch (-want +got):\n%s", diff)
				}
			}
			if errors.Is(tt.err, ErrMalformed) != errors.Is(got, ErrMalformed) {
				t.Errorf("errors.Is(Err(), ErrMalformed) = %v, want %v", errors.Is(got, ErrMalformed), errors.Is(tt.err, ErrMalformed))
			}
		})
	}
}

// TestDecodeRefuses lines that are not of the protocol, quoting nothing of
// them.
func TestDecodeRefuses(t *testing.T) {
	tests := []struct {
		name, line string
		response   bool
	}{
		{name: "not JSON", line: "hunter2-not-json"},
		{name: "unknown field", line: `{"kind":"value","data":"","secret":"hunter2"}`},
		{name: "unknown kind", line: `{"kind":"hunter2","data":""}`},
		{name: "two values", line: `{"kind":"value","data":""} {"hunter2":1}`},
		{name: "bad base64", line: `{"kind":"value","data":"hunter2!"}`},
		{name: "unknown error kind", line: `{"error":{"kind":"hunter2"}}`, response: true},
		{name: "value and error", line: `{"plain":"aHVudGVyMg==","error":{"kind":"other"}}`, response: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.response {
				_, err = DecodeResponse([]byte(tt.line))
			} else {
				_, err = DecodeRequest([]byte(tt.line))
			}
			if err == nil {
				t.Fatalf("decode(%q) = nil, want an error", tt.line)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("decode(%q) = %q: it quotes the line", tt.line, err)
			}
		})
	}
}
