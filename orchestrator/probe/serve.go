package probe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ShutdownTimeout bounds how long Serve waits for requests in flight once
// its context ended.
const ShutdownTimeout = 5 * time.Second

// Serve serves Handler(ready) on ln until ctx ends, then shuts the server
// down. It returns nil on a clean stop.
func Serve(ctx context.Context, ln net.Listener, ready Check) error {
	srv := &http.Server{Handler: Handler(ready), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve probes on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shut down probes on %s: %w", ln.Addr(), err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve probes on %s: %w", ln.Addr(), err)
	}
	return nil
}
