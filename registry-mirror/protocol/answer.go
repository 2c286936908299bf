package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
)

// DefaultMaxUpload is the largest archive a PUT may carry unless
// [Base].MaxUpload says otherwise: 2 GiB.
const DefaultMaxUpload int64 = 2 << 30

// Base is what every protocol's handlers share.
type Base struct {
	// UploadToken is the bearer token an upload must carry; empty means
	// uploads are off.
	UploadToken string
	// MaxUpload is the largest archive a PUT may carry.
	MaxUpload int64
	// Log gets a line per upload and per failed request.
	Log *slog.Logger
}

// NewBase returns a Base with the defaults filled in: [DefaultMaxUpload]
// for a maxUpload of 0 or less, and a discarding logger for nil.
func NewBase(uploadToken string, maxUpload int64, log *slog.Logger) Base {
	if maxUpload <= 0 {
		maxUpload = DefaultMaxUpload
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return Base{UploadToken: uploadToken, MaxUpload: maxUpload, Log: log}
}

// WriteJSON writes an index. tofu requires exactly application/json.
func WriteJSON(w http.ResponseWriter, v any) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(data, '\n'))
}

// WriteCreated answers a stored upload: 201 with v as JSON.
func WriteCreated(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(v)
}

// Fail answers a failed GET: 404 for what the store does not have or
// cannot name, 500 otherwise (tofu would read a 404 as "no such provider"
// or "no such module"), and 502 with the error when the upstream of a
// pull-through mirror failed, or served a package that does not match its
// SHA256SUMS.
func (b Base) Fail(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, ErrUpstream):
		b.Log.ErrorContext(r.Context(), "upstream failed", "path", r.URL.Path, "err", err)
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	case errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalid):
		http.NotFound(w, r)
		return
	}
	b.Log.ErrorContext(r.Context(), "mirror request failed", "path", r.URL.Path, "err", err)
	http.Error(w, "internal error", http.StatusInternalServerError)
}

// FailUpload answers a failed upload and reports whether it failed: 413
// past the size limit, 400 for malformed input, 409 for a different
// archive under a published name, 500 otherwise.
func (b Base) FailUpload(w http.ResponseWriter, r *http.Request, err error) bool {
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		return false
	case errors.As(err, &tooLarge):
		http.Error(w, fmt.Sprintf("archive larger than %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
	case errors.Is(err, ErrInvalid):
		http.Error(w, err.Error(), http.StatusBadRequest)
	case errors.Is(err, ErrExists):
		http.Error(w, err.Error(), http.StatusConflict)
	default:
		b.Log.ErrorContext(r.Context(), "upload failed", "path", r.URL.Path, "err", err)
		http.Error(w, "upload failed", http.StatusInternalServerError)
	}
	return true
}
