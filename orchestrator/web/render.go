package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
)

// page is what the layout of every page needs.
type page struct {
	Title string
	// CSRF is the token every POST form carries.
	CSRF string
	// Reader and Approver say what the person may do.
	Reader, Approver bool
	// Live is true when a reconcile loop runs, so that live updates are
	// offered.
	Live bool
	// Nav names the current section.
	Nav string
}

func (s *Server) newPage(w http.ResponseWriter, r *http.Request, title string) page {
	ro := roleFrom(r.Context())
	if ro == roleNone {
		ro = s.roleOf(r)
	}
	return page{
		Title: title, CSRF: csrfToken(w, r),
		Reader: ro >= roleReader, Approver: ro == roleApprover && s.cfg.Approve != nil,
		Live: s.cfg.Live != nil,
	}
}

// parsePages parses each page template with the layout.
func parsePages() (map[string]*template.Template, error) {
	names, err := templateFS.ReadDir("templates")
	if err != nil {
		return nil, fmt.Errorf("parse web templates: %w", err)
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(n.Name(), ".html")
		if name == "layout" {
			continue
		}
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+n.Name())
		if err != nil {
			return nil, fmt.Errorf("parse web template %s: %w", n.Name(), err)
		}
		pages[name] = t
	}
	return pages, nil
}

// render writes a page whole, or an error page when it cannot be
// rendered: nothing half-written reaches the browser.
func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, name string, data any) {
	var b bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&b, "layout", data); err != nil {
		s.log.Error(fmt.Sprintf("render page %s: %v", name, err))
		http.Error(w, "render page "+name+": internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

type errorPage struct {
	page
	Message string
}

func (s *Server) renderError(w http.ResponseWriter, r *http.Request, code int, msg string) {
	s.render(w, r, code, "error", &errorPage{page: s.newPage(w, r, http.StatusText(code)), Message: msg})
}

var funcs = template.FuncMap{
	// resultClass is the CSS class of a result (a history.Result).
	"resultClass": func(result any) string {
		if s := fmt.Sprint(result); s != "" {
			return "result-" + s
		}
		return "result-none"
	},
	// orDash writes a string, or a result, or a dash for nothing.
	"orDash": func(v any) string {
		if s := fmt.Sprint(v); s != "" {
			return s
		}
		return "–"
	},
	"ago":      ago,
	"duration": roundDuration,
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "–"
		}
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	},
	"stackURL": func(client, env, stack string) string {
		return "/stack/" + path.Join(pathEscape(client), pathEscape(env), pathEscape(stack))
	},
	"envURL": func(client, env string) string {
		return "/env/" + path.Join(pathEscape(client), pathEscape(env))
	},
}

// ago says how long ago t was, in the largest whole unit.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case t.IsZero():
		return "–"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	default:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
}

func roundDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "–"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	default:
		return d.Round(100 * time.Millisecond).String()
	}
}

func pathEscape(s string) string { return url.PathEscape(s) }

func pathf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
