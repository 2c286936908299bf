package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ShutdownTimeout bounds how long the HTTP server waits for requests in
// flight once the loop stopped.
const ShutdownTimeout = 10 * time.Second

// Serve serves Handler on ln and runs the loop until ctx is done, or, with
// an Elector, until this process stops leading (an error). It stops
// scheduling new work, lets the running reconcile end (its tofu processes
// interrupted gracefully), and only then shuts the server down, so that
// /healthz answers for as long as a reconcile runs. It returns nil on a
// clean stop.
func (d *Daemon) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           d.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		// Requests keep running while the loop stops; Shutdown waits for
		// them.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if d.web != nil {
		// Event streams never end on their own: end them on shutdown.
		srv.RegisterOnShutdown(d.web.Close)
	}
	loopCtx, stopLoop := context.WithCancel(ctx)
	defer stopLoop()
	served := make(chan error, 1)
	go func() {
		err := srv.Serve(ln)
		if !errors.Is(err, http.ErrServerClosed) {
			// The server failed on its own: stop the loop too.
			stopLoop()
		}
		served <- err
	}()
	d.log.Info(fmt.Sprintf("serving /healthz, /readyz, /metrics and /api/v1 on http://%s", ln.Addr()))
	if d.web != nil {
		d.log.Info(fmt.Sprintf("serving the web view on http://%s/", ln.Addr()))
	}

	loopErr := d.loop(loopCtx)

	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	shutdownErr := srv.Shutdown(shutdownCtx)
	serveErr := <-served
	if errors.Is(serveErr, http.ErrServerClosed) {
		serveErr = nil
	}
	if serveErr != nil {
		serveErr = fmt.Errorf("serve http on %s: %w", ln.Addr(), serveErr)
	}
	if shutdownErr != nil {
		shutdownErr = fmt.Errorf("shut down http server on %s: %w", ln.Addr(), shutdownErr)
	}
	return errors.Join(loopErr, serveErr, shutdownErr)
}
