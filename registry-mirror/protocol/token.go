package protocol

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// Authorized reports whether r carries the upload token. Without a token
// nothing is authorized.
func (b Base) Authorized(r *http.Request) bool {
	if b.UploadToken == "" {
		return false
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(token), []byte(b.UploadToken)) == 1
}

// Unauthorized answers an upload without the token.
func Unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="strata mirror"`)
	http.Error(w, "an upload needs the mirror's bearer token", http.StatusUnauthorized)
}
