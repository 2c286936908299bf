package decryption

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The kinds of Request: what is decrypted, as the Decryptor's methods of
// the same names decrypt it.
const (
	KindObject = "object"
	KindValue  = "value"
	KindEnv    = "env"
)

// The kinds of WireError.
const (
	errKindKey       = "key"
	errKindMalformed = "malformed"
	errKindOther     = "other"
)

// maxLine is the longest line of the protocol: a value of MaxSize bytes
// in base64, with room for its name, the JSON around it, and a decrypted
// value that its output format (JSON's indentation) made longer than the
// encrypted one.
const maxLine = 4*MaxSize + 64<<10

// Request is one line strata writes to strata-sops: a value to decrypt.
type Request struct {
	// Kind is KindObject (Data is a JSON object), KindValue or KindEnv
	// (Data is a file, named Name).
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
	Data []byte `json:"data"`
}

// Response is the line strata-sops answers a Request with.
type Response struct {
	// Plain is the decrypted value (a JSON object for KindObject), or
	// Data as it was when Encrypted is false.
	Plain     []byte     `json:"plain,omitempty"`
	Encrypted bool       `json:"encrypted,omitempty"`
	Error     *WireError `json:"error,omitempty"`
}

// WireError is an error of a Response: a *KeyError with its fields,
// ErrMalformed, or another error's message.
type WireError struct {
	Kind       string   `json:"kind"`
	Message    string   `json:"message,omitempty"`
	Recipients []string `json:"recipients,omitempty"`
	Sources    []string `json:"sources,omitempty"`
	Problems   []string `json:"problems,omitempty"`
	Secret     string   `json:"secret,omitempty"`
}

// NewResponse is the Response for what a decryption returned.
func NewResponse(plain []byte, encrypted bool, err error) Response {
	if err == nil {
		return Response{Plain: plain, Encrypted: encrypted}
	}
	var ke *KeyError
	switch {
	case errors.As(err, &ke):
		return Response{Error: &WireError{Kind: errKindKey, Recipients: ke.Recipients, Sources: ke.Sources, Problems: ke.Problems, Secret: ke.Secret}}
	case errors.Is(err, ErrMalformed):
		return Response{Error: &WireError{Kind: errKindMalformed}}
	}
	return Response{Error: &WireError{Kind: errKindOther, Message: err.Error()}}
}

// Err is the error a Response carries, as the decryption returned it: a
// *KeyError, ErrMalformed, or an error with the same message.
func (r Response) Err() error {
	e := r.Error
	if e == nil {
		return nil
	}
	switch e.Kind {
	case errKindKey:
		return &KeyError{Recipients: e.Recipients, Sources: e.Sources, Problems: e.Problems, Secret: e.Secret}
	case errKindMalformed:
		return ErrMalformed
	}
	return errors.New(e.Message)
}

// NewLineScanner reads the lines of the protocol from r, each up to the
// longest a Request or Response may be.
func NewLineScanner(r io.Reader) *bufio.Scanner {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64<<10), maxLine)
	return s
}

// WriteLine writes v as one line of JSON.
func WriteLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// DecodeRequest decodes one line into a Request, and refuses one of an
// unknown kind. Its errors quote nothing of the line.
func DecodeRequest(line []byte) (Request, error) {
	var r Request
	if err := decodeStrict(line, &r); err != nil {
		return Request{}, fmt.Errorf("decode request: %w", err)
	}
	switch r.Kind {
	case KindObject, KindValue, KindEnv:
		return r, nil
	}
	return Request{}, fmt.Errorf("decode request: unknown kind (want %s, %s or %s)", KindObject, KindValue, KindEnv)
}

// DecodeResponse decodes one line into a Response, and refuses an error
// of an unknown kind. Its errors quote nothing of the line.
func DecodeResponse(line []byte) (Response, error) {
	var r Response
	if err := decodeStrict(line, &r); err != nil {
		return Response{}, fmt.Errorf("decode response: %w", err)
	}
	if e := r.Error; e != nil {
		switch e.Kind {
		case errKindKey, errKindMalformed, errKindOther:
		default:
			return Response{}, errors.New("decode response: unknown error kind")
		}
		if r.Plain != nil || r.Encrypted {
			return Response{}, errors.New("decode response: both a value and an error")
		}
	}
	return r, nil
}

// decodeStrict decodes one JSON object with only the fields of v, and
// nothing after it. Its errors quote nothing of the line: a line may hold
// a secret.
func decodeStrict(line []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return errors.New("not a JSON object of the protocol")
	}
	if err := d.Decode(&json.RawMessage{}); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}
