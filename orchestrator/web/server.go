package web

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/report"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Live is what a running reconcile loop knows of one environment.
type Live struct {
	// Dir is the environment directory as configured.
	Dir string
	// Running is true while a reconcile of the environment runs.
	Running bool
	// Report is the last reconcile's report, if one finished.
	Report *report.Report
	// Err says why the last reconcile could not run, if it could not.
	Err string
	// FinishedAt is when the last reconcile finished.
	FinishedAt time.Time
}

// Approval is one person's approval of one held plan, as the form sends
// it.
type Approval struct {
	// Environment is the environment's client/env.
	Environment string
	Stack       string
	PlanID      string
	Reason      string
	By          string
}

// Config configures the web view.
type Config struct {
	// Environments are the environment directories shown, in this order.
	Environments []string
	// StateDir is the state directory; <root>/.strata when empty, as for
	// reconciles.
	StateDir string
	// Records keeps the history and held plans shown; nil is the state
	// directory's files, as for reconciles (reconcile.Options.Records).
	Records envstores.Records
	// ReadToken lets a person read every page; ApproveToken also lets them
	// approve. When only one is set, it does both.
	ReadToken    string
	ApproveToken string
	// Live returns what the reconcile loop knows of each environment; nil
	// when no loop runs (strata serve).
	Live func() []Live
	// Approve records an approval of a held plan, through the same code as
	// every other approval; nil makes the view read-only. Its error is
	// shown to the person as it is.
	Approve func(ctx context.Context, a Approval) error
	// Logger receives the view's own lines.
	Logger *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Server serves the web view.
type Server struct {
	cfg    Config
	log    *slog.Logger
	pages  map[string]*template.Template
	hub    *hub
	static http.Handler

	// histMu serialises reads of the history files; snapshots keeps the
	// last read of each, for while a reconcile holds it.
	histMu    sync.Mutex
	snapshots map[string]snapshot
}

// New returns a Server. It fails when the templates do not parse.
func New(cfg Config) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ReadToken == "" {
		cfg.ReadToken = cfg.ApproveToken
	}
	if cfg.ApproveToken == "" {
		cfg.ApproveToken = cfg.ReadToken
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, errors.New("new web view: embedded assets missing")
	}
	return &Server{
		cfg: cfg, log: cfg.Logger, pages: pages, hub: newHub(),
		static:    http.StripPrefix("/static/", http.FileServerFS(sub)),
		snapshots: map[string]snapshot{},
	}, nil
}

// Handler serves every page; see the package documentation for the
// routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", s.static)
	mux.HandleFunc("GET /login", s.handleLoginForm)
	mux.HandleFunc("POST /login", s.handleLogin)
	mux.HandleFunc("POST /logout", s.handleLogout)
	mux.Handle("GET /{$}", s.reader(s.handleFleet))
	mux.Handle("GET /env/{client}/{env}", s.reader(s.handleEnvironment))
	mux.Handle("GET /stack/{client}/{env}/{stack}", s.reader(s.handleStack))
	mux.Handle("GET /held", s.reader(s.handleHeld))
	mux.Handle("POST /held/approve", s.reader(s.handleApprove))
	mux.Handle("GET /events", s.reader(s.handleEvents))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.renderError(w, r, http.StatusNotFound, "There is no page "+r.URL.Path+".")
	})
	return secure(http.NewCrossOriginProtection().Handler(mux))
}

// contentSecurityPolicy allows the page's own script, stylesheet and
// event stream, and nothing inline.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// secure sets the headers every response carries.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
