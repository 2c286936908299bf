package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// healthCheck runs the stack's health checks (spec.healthChecks), as the
// Tofu Controller runs them: after an apply, in order, each a TCP dial or
// an HTTP GET that must answer 2xx or 3xx, its address or URL a
// template over the stack's outputs (${{.name}}, each output as its
// output Secret key holds it: a string as it is, anything else as JSON).
// The first that fails is recorded on the run (history.Run.HealthCheck)
// and logged; the apply stands. A run without changes checks again only
// when the last good run's checks failed (upToDate plans such a stack at
// once), as the Tofu Controller checks again until they pass.
func (r *Runner) healthCheck(ctx context.Context, st *runState) error {
	s, run := st.req.Stack, &st.run
	if len(s.HealthChecks) == 0 || s.Run.Destroy {
		return nil
	}
	againAfterFailure := run.Result == history.ResultNoChanges && st.hasPrev && st.prev.HealthCheck != nil && !st.prev.HealthCheck.Passed()
	if run.Result != history.ResultApplied && !againAfterFailure {
		return nil
	}
	outs, err := st.outputsOf(ctx)
	if err != nil {
		return fmt.Errorf("health checks of stack %s: read outputs: %w", s.Name, err)
	}
	values := make(map[string]string, len(outs))
	for name, o := range outs {
		values[name] = outputText(o.Value)
	}
	hc := &history.HealthCheck{}
	for _, c := range s.HealthChecks {
		if err := checkHealth(ctx, c, values); err != nil {
			kind := "TCP"
			if c.Type == environment.HealthCheckHTTP {
				kind = "HTTP"
			}
			hc.Failed, hc.Message = c.Name, err.Error()
			hc.Event = fmt.Sprintf("%s health check error: %s, url: %s", kind, c.Name, c.Target())
			st.log.Warn(fmt.Sprintf("health check %s failed: %v; the next reconcile checks again", c.Name, err))
			break
		}
	}
	if hc.Passed() {
		st.log.Info(fmt.Sprintf("health checks succeeded (%d)", len(s.HealthChecks)))
	}
	run.HealthCheck = hc
	return nil
}

// outputText is an output's value as its output Secret key holds it.
func outputText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// checkHealth runs one check with the outputs' values.
func checkHealth(ctx context.Context, c environment.HealthCheck, values map[string]string) error {
	target, err := tcdata.RenderTemplate(c.Name, c.Target(), values)
	if err != nil {
		return fmt.Errorf("error getting terraform output for health checks: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	if c.Type == environment.HealthCheckTCP {
		return checkTCP(ctx, c.Name, target)
	}
	return checkHTTP(ctx, c.Name, target)
}

// checkTCP dials address, which must be host:port with a valid host.
func checkTCP(ctx context.Context, name, address string) error {
	if err := validAddress(address); err != nil {
		return fmt.Errorf("invalid address for tcp health check: %s, %w", address, err)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", address)
	if err != nil {
		return fmt.Errorf("failed to perform tcp health check for %s on %s: %w", name, address, err)
	}
	return conn.Close()
}

// validAddress is the Tofu Controller's check of a tcp health check's
// address: host:port, no scheme, the host an IP or RFC 952 labels, the
// port 1 to 65535.
func validAddress(address string) error {
	if strings.Contains(address, "://") {
		return errors.New("URL schemas are not allowed")
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if net.ParseIP(host) == nil {
		for label := range strings.SplitSeq(host, ".") {
			if !validLabel(label) {
				return errors.New("invalid host format")
			}
		}
	}
	if p, err := strconv.Atoi(port); err != nil || p <= 0 || p > 65535 {
		return errors.New("invalid port number")
	}
	return nil
}

func validLabel(label string) bool {
	if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return false
	}
	for _, c := range label {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// checkHTTP gets rawURL, which must answer 2xx or 3xx.
func checkHTTP(ctx context.Context, name, rawURL string) error {
	if _, err := url.ParseRequestURI(rawURL); err != nil {
		return fmt.Errorf("invalid url for http health check: %s, %w", rawURL, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("failed to perform http health check for %s on %s: %w", name, rawURL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode >= http.StatusOK && resp.StatusCode < http.StatusBadRequest {
		return nil
	}
	return fmt.Errorf("failed to perform http health check for %s on %s: %s, response body: %s", name, rawURL, resp.Status, body)
}
