package runner

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-iac/strata/internal/certpool"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// webhookTimeout bounds one webhook's answer.
const webhookTimeout = time.Minute

// webhookCertsDir is where, as in the Tofu Controller, a webhook's host
// has its client certificate (<dir>/<host>/tls.crt and tls.key) and the
// CA that signs its server (ca.crt), when it asks for them.
var webhookCertsDir = "/etc/certs"

// webhooks posts a plan with changes to the stack's post-planning
// webhooks (spec.webhooks), in order, as the Tofu Controller does, before
// the policy judges it: the payload is the Terraform object with the plan
// as status.tfplan (SpecAndPlan), the object alone (SpecOnly) or the plan
// alone (PlanOnly), as JSON; the reply, a JSON object, passes when the
// webhook's testExpression renders true or yes, and fails the run with
// its errorMessageTemplate, rendered, when it renders false or no. Any
// other outcome (no answer, a status other than 200, a reply that is not
// JSON, another rendering) fails the run too. The run records the
// webhook (history.Run's Webhook); nothing is applied.
func (r *Runner) webhooks(ctx context.Context, st *runState) error {
	s := st.req.Stack
	if !st.plan.changed || len(s.Webhooks) == 0 {
		return nil
	}
	for _, w := range s.Webhooks {
		if err := callWebhook(ctx, w, s.Object, st.plan.plan.JSON); err != nil {
			st.run.Webhook = w.URL
			st.log.Warn(fmt.Sprintf("post-planning webhook %s refused the plan: %v", w.URL, err))
			return err
		}
		st.log.Info(fmt.Sprintf("post-planning webhook %s passed the plan", w.URL))
	}
	return nil
}

// callWebhook posts the payload to one webhook and judges its reply.
func callWebhook(ctx context.Context, w environment.Webhook, object, plan json.RawMessage) error {
	payload, err := webhookPayload(w.PayloadType, object, plan)
	if err != nil {
		return err
	}
	client, err := webhookClient(w.URL)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, webhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(payload))
	if err != nil {
		return fmt.Errorf("failed to send webhook: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("failed to send webhook: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("webhook %s returned %d: %s", w.URL, resp.StatusCode, resp.Status)
	}
	reply := map[string]any{}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&reply); err != nil {
		return fmt.Errorf("failed to decode webhook reply: %w", err)
	}
	test, err := tcdata.RenderTemplate("testexpr", w.TestExpression, reply)
	if err != nil {
		return fmt.Errorf("failed to execute webhook test expression: %w", err)
	}
	switch strings.TrimSpace(test) {
	case "true", "yes":
		return nil
	case "false", "no":
	default:
		return fmt.Errorf("webhook test expression %q returned unexpected result: %s", w.TestExpression, strings.TrimSpace(test))
	}
	msg, err := tcdata.RenderTemplate("errmsg", w.ErrorMessageTemplate, reply)
	if err != nil {
		return fmt.Errorf("failed to execute webhook error message template: %w", err)
	}
	return errors.New(msg)
}

// webhookPayload is what a webhook of payloadType is posted.
func webhookPayload(payloadType string, object, plan json.RawMessage) ([]byte, error) {
	switch payloadType {
	case environment.PayloadPlanOnly:
		return plan, nil
	case environment.PayloadSpecOnly:
		return object, nil
	case environment.PayloadSpecAndPlan, "":
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(object, &obj); err != nil {
			return nil, fmt.Errorf("failed to prepare webhook payload: %w", err)
		}
		status, err := json.Marshal(map[string]json.RawMessage{"tfplan": plan})
		if err != nil {
			return nil, fmt.Errorf("failed to prepare webhook payload: %w", err)
		}
		obj["status"] = status
		return json.Marshal(obj)
	}
	return nil, fmt.Errorf("unknown payload type: %s", payloadType)
}

// webhookClient is the HTTP client of a webhook: the system's roots (and
// SSL_CERT_FILE), with the host's CA and client certificate of
// webhookCertsDir when it has them, as the Tofu Controller presents them.
func webhookClient(rawURL string) (*http.Client, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("failed to parse webhook URL: %w", err)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	dir := filepath.Join(webhookCertsDir, u.Hostname())
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	if _, err := os.Stat(certFile); err == nil {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("failed to load webhook TLS certificate: %w", err)
		}
		cfg := &tls.Config{Certificates: []tls.Certificate{cert}}
		if ca, err := os.ReadFile(filepath.Join(dir, "ca.crt")); err == nil {
			if pool, ok := certpool.WithPEM(ca); ok {
				cfg.RootCAs = pool
			}
		}
		transport.TLSClientConfig = cfg
	}
	return &http.Client{Transport: transport}, nil
}
