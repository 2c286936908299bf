package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
)

// Cookies of the view. Both are HttpOnly and SameSite=Strict.
const (
	tokenCookie = "strata_token"
	csrfCookie  = "strata_csrf"
	csrfField   = "csrf"
)

// role is what a request may do.
type role int

const (
	roleNone role = iota
	roleReader
	roleApprover
)

type roleKey struct{}

// roleOf says what the request's token cookie allows.
func (s *Server) roleOf(r *http.Request) role {
	c, err := r.Cookie(tokenCookie)
	if err != nil || c.Value == "" {
		return roleNone
	}
	switch {
	case equal(c.Value, s.cfg.ApproveToken):
		return roleApprover
	case equal(c.Value, s.cfg.ReadToken):
		return roleReader
	}
	return roleNone
}

// equal compares a token in constant time, also of its length; an empty
// configured token matches nothing.
func equal(got, want string) bool {
	if want == "" {
		return false
	}
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}

// reader lets through requests whose cookie holds a token; others are sent
// to the login form (or refused, for the event stream and POSTs).
func (s *Server) reader(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.ReadToken == "" {
			s.renderError(w, r, http.StatusForbidden, "No token is configured, so the web view is closed: start strata with --token-file (or $STRATA_API_TOKEN).")
			return
		}
		ro := s.roleOf(r)
		if ro == roleNone {
			if r.Method != http.MethodGet || r.URL.Path == "/events" {
				s.renderError(w, r, http.StatusUnauthorized, "Log in first: this needs a token.")
				return
			}
			http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		if r.Method == http.MethodPost && !s.checkCSRF(r) {
			s.renderError(w, r, http.StatusForbidden, "The form's CSRF token does not match: reload the page and send the form again.")
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), roleKey{}, ro)))
	})
}

func roleFrom(ctx context.Context) role {
	ro, _ := ctx.Value(roleKey{}).(role)
	return ro
}

// csrfToken returns the request's CSRF token, setting its cookie when the
// request has none.
func csrfToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(csrfCookie); err == nil && len(c.Value) == 64 {
		return c.Value
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	v := hex.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: v, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	r.AddCookie(&http.Cookie{Name: csrfCookie, Value: v})
	return v
}

// checkCSRF compares the form's CSRF token with its cookie.
func (s *Server) checkCSRF(r *http.Request) bool {
	c, err := r.Cookie(csrfCookie)
	if err != nil || len(c.Value) != 64 {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(r.PostFormValue(csrfField)), []byte(c.Value)) == 1
}

type loginPage struct {
	page
	Next  string
	Error string
}

func (s *Server) handleLoginForm(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "login", &loginPage{page: s.newPage(w, r, "Log in"), Next: localPath(r.URL.Query().Get("next"))})
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	next := localPath(r.PostFormValue("next"))
	if !s.checkCSRF(r) {
		s.render(w, r, http.StatusForbidden, "login", &loginPage{page: s.newPage(w, r, "Log in"), Next: next,
			Error: "The form's CSRF token does not match: send the form again."})
		return
	}
	token := strings.TrimSpace(r.PostFormValue("token"))
	if !equal(token, s.cfg.ReadToken) && !equal(token, s.cfg.ApproveToken) {
		s.render(w, r, http.StatusUnauthorized, "login", &loginPage{page: s.newPage(w, r, "Log in"), Next: next,
			Error: "This token is neither the status token nor the approver token."})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	if !s.checkCSRF(r) {
		s.renderError(w, r, http.StatusForbidden, "The form's CSRF token does not match: reload the page and send the form again.")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// localPath keeps a redirect target on this site: a path, never a URL of
// another host.
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") {
		return "/"
	}
	return p
}
