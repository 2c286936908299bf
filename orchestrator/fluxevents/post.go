package fluxevents

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	eventv1 "github.com/fluxcd/pkg/apis/event/v1beta1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Controller is the name events are reported under: the Tofu Controller's,
// which Alerts and their providers show and match on.
const Controller = "tf-controller"

// Object is the object an event is about.
type Object struct {
	APIVersion, Kind, Namespace, Name, UID string
}

// Poster posts events to one notification-controller.
type Poster struct {
	addr     string
	instance string
	client   *http.Client
	// tries and wait bound the retries of a post the receiver did not
	// take.
	tries int
	wait  time.Duration
}

// New returns a Poster to the events address addr (--events-addr, e.g.
// http://notification-controller.flux-system.svc.cluster.local./).
func New(addr string) (*Poster, error) {
	u, err := url.Parse(addr)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("events address %q is not an http or https URL", addr)
	}
	instance, _ := os.Hostname()
	return &Poster{addr: addr, instance: instance, client: &http.Client{Timeout: 15 * time.Second}, tries: 4, wait: time.Second}, nil
}

// Post posts one event about obj: its type (Normal or Warning, the
// Kubernetes Event's, as info or error), reason and message, with
// metadata (the revision), each key prefixed with the object's API group
// as Flux's controllers prefix theirs (infra.contrib.fluxcd.io/revision):
// notification-controller keeps only the keys so prefixed, and its
// commit-status providers read the revision there. A receiver that
// does not take it is tried again a few times; the last error is
// returned.
func (p *Poster) Post(ctx context.Context, obj Object, eventType, reason, message string, metadata map[string]string) error {
	severity := eventv1.EventSeverityInfo
	if eventType == corev1.EventTypeWarning {
		severity = eventv1.EventSeverityError
	}
	body, err := json.Marshal(eventv1.Event{
		InvolvedObject: corev1.ObjectReference{
			APIVersion: obj.APIVersion, Kind: obj.Kind, Namespace: obj.Namespace, Name: obj.Name, UID: types.UID(obj.UID),
		},
		Severity:            severity,
		Timestamp:           metav1.Now(),
		Message:             message,
		Reason:              reason,
		Metadata:            grouped(obj.APIVersion, metadata),
		ReportingController: Controller,
		ReportingInstance:   p.instance,
	})
	if err != nil {
		return fmt.Errorf("post event of %s/%s: %w", obj.Namespace, obj.Name, err)
	}
	var last error
	for try := range p.tries {
		if try > 0 {
			select {
			case <-ctx.Done():
				return fmt.Errorf("post event of %s/%s: %w", obj.Namespace, obj.Name, ctx.Err())
			case <-time.After(p.wait << (try - 1)):
			}
		}
		if last = p.post(ctx, body); last == nil {
			return nil
		}
	}
	return fmt.Errorf("post event of %s/%s to %s: %w", obj.Namespace, obj.Name, p.addr, last)
}

// grouped is metadata with each key prefixed by the API group of
// apiVersion, unless it has a prefix already.
func grouped(apiVersion string, metadata map[string]string) map[string]string {
	if len(metadata) == 0 {
		return nil
	}
	group, _, _ := strings.Cut(apiVersion, "/")
	out := make(map[string]string, len(metadata))
	for k, v := range metadata {
		if !strings.Contains(k, "/") {
			k = group + "/" + k
		}
		out[k] = v
	}
	return out
}

func (p *Poster) post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.addr, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}
