package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/strata-iac/strata/orchestrator/runlog"
)

// keepAlive is how often an idle event stream sends a comment, so that
// proxies keep it open.
const keepAlive = 25 * time.Second

// event is one Server-Sent Event: "log" with a run log line, or "refresh"
// when a reconcile started or ended.
type event struct {
	name, data string
}

// hub hands events to every open stream. A stream that falls behind loses
// events rather than slowing the reconcile down.
type hub struct {
	mu   sync.Mutex
	subs map[chan event]struct{}
	// closed ends every stream, for a server that shuts down.
	closed    chan struct{}
	closeOnce sync.Once
}

func newHub() *hub { return &hub{subs: map[chan event]struct{}{}, closed: make(chan struct{})} }

func (h *hub) subscribe() chan event {
	ch := make(chan event, 256)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch
}

func (h *hub) unsubscribe(ch chan event) {
	h.mu.Lock()
	delete(h.subs, ch)
	h.mu.Unlock()
}

func (h *hub) publish(e event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- e:
		default:
		}
	}
}

// Write publishes each run log line written by the handler LogHandler
// returns.
func (h *hub) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		h.publish(event{name: "log", data: line})
	}
	return len(p), nil
}

// LogHandler returns a slog.Handler that sends every run log line to the
// open event streams, in the run log format: the same lines, redacted the
// same way, as the command line prints.
func (s *Server) LogHandler() slog.Handler { return runlog.NewHandler(s.hub, nil) }

// Changed tells every open page that a reconcile started or ended, so
// that it reloads what it shows.
func (s *Server) Changed() {
	s.hub.publish(event{name: "refresh", data: s.cfg.Now().UTC().Format(time.RFC3339)})
}

// Close ends every open event stream, so that an HTTP server can shut
// down: streams never end on their own.
func (s *Server) Close() { s.hub.closeOnce.Do(func() { close(s.hub.closed) }) }

// handleEvents streams events until the client goes away.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	ch := s.hub.subscribe()
	defer s.hub.unsubscribe(ch)
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": strata events\n\n")
	if err := rc.Flush(); err != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.hub.closed:
			return
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case e := <-ch:
			fmt.Fprintf(w, "event: %s\n", e.name)
			for _, line := range strings.Split(e.data, "\n") {
				fmt.Fprintf(w, "data: %s\n", line)
			}
			fmt.Fprint(w, "\n")
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
