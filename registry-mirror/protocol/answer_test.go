package protocol

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestFail(t *testing.T) {
	b := NewBase("", 0, nil)
	tests := []struct {
		name     string
		err      error
		wantCode int
		wantBody string
	}{
		{"not found", fmt.Errorf("archive x: %w", ErrNotFound), http.StatusNotFound, "404 page not found"},
		{"invalid", fmt.Errorf("%w version %q", ErrInvalid, "x"), http.StatusNotFound, "404 page not found"},
		{"upstream", fmt.Errorf("%w host: down", ErrUpstream), http.StatusBadGateway, "upstream registry host: down"},
		{"anything else", errors.New("disk on fire"), http.StatusInternalServerError, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			b.Fail(w, httptest.NewRequest(http.MethodGet, "/x", nil), tt.err)
			if w.Code != tt.wantCode || strings.TrimSpace(w.Body.String()) != tt.wantBody {
				t.Errorf("Fail(%v) = %d %q, want %d %q", tt.err, w.Code, w.Body, tt.wantCode, tt.wantBody)
			}
		})
	}
}

func TestFailUpload(t *testing.T) {
	b := NewBase("token", 0, nil)
	tests := []struct {
		name     string
		err      error
		wantFail bool
		wantCode int
	}{
		{"stored", nil, false, http.StatusOK},
		{"too large", fmt.Errorf("read archive: %w", &http.MaxBytesError{Limit: 10}), true, http.StatusRequestEntityTooLarge},
		{"invalid", fmt.Errorf("%w archive: no executable", ErrInvalid), true, http.StatusBadRequest},
		{"exists", fmt.Errorf("archive x: %w", ErrExists), true, http.StatusConflict},
		{"anything else", errors.New("disk on fire"), true, http.StatusInternalServerError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			failed := b.FailUpload(w, httptest.NewRequest(http.MethodPut, "/x", nil), tt.err)
			if failed != tt.wantFail || w.Code != tt.wantCode {
				t.Errorf("FailUpload(%v) = %v with %d, want %v with %d", tt.err, failed, w.Code, tt.wantFail, tt.wantCode)
			}
		})
	}
}

func TestAuthorized(t *testing.T) {
	tests := []struct {
		name   string
		token  string
		header string
		want   bool
	}{
		{"right token", "s3cret", "Bearer s3cret", true},
		{"wrong token", "s3cret", "Bearer guess", false},
		{"no header", "s3cret", "", false},
		{"not a bearer", "s3cret", "Basic s3cret", false},
		{"uploads off", "", "Bearer ", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPut, "/x", nil)
			if tt.header != "" {
				r.Header.Set("Authorization", tt.header)
			}
			if got := NewBase(tt.token, 0, nil).Authorized(r); got != tt.want {
				t.Errorf("Authorized(%q) with token %q = %v, want %v", tt.header, tt.token, got, tt.want)
			}
		})
	}
}

func TestNewBase(t *testing.T) {
	tests := []struct {
		max, want int64
	}{
		{0, DefaultMaxUpload},
		{-1, DefaultMaxUpload},
		{10, 10},
	}
	for _, tt := range tests {
		b := NewBase("", tt.max, nil)
		if b.MaxUpload != tt.want || b.Log == nil {
			t.Errorf("NewBase(%d) = %+v, want MaxUpload %d and a logger", tt.max, b, tt.want)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	tests := []struct {
		name     string
		write    func(http.ResponseWriter, any)
		v        any
		wantCode int
		wantBody string
	}{
		{"index", WriteJSON, map[string]int{"a": 1}, http.StatusOK, "{\n  \"a\": 1\n}\n"},
		{"created", WriteCreated, map[string]int{"a": 1}, http.StatusCreated, "{\"a\":1}\n"},
		{"not JSON", WriteJSON, func() {}, http.StatusInternalServerError, "internal error\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			tt.write(w, tt.v)
			if w.Code != tt.wantCode || w.Body.String() != tt.wantBody {
				t.Errorf("%s(%v) = %d %q, want %d %q", tt.name, tt.v, w.Code, w.Body, tt.wantCode, tt.wantBody)
			}
			if tt.wantCode != http.StatusInternalServerError && w.Header().Get("Content-Type") != "application/json" {
				t.Errorf("%s(%v) Content-Type = %q, want application/json", tt.name, tt.v, w.Header().Get("Content-Type"))
			}
		})
	}
}
