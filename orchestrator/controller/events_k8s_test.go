//go:build k8s

package controller_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	eventv1 "github.com/fluxcd/pkg/apis/event/v1beta1"

	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/fluxevents"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestEventsAddrInCluster: with --events-addr, each object's events reach
// a receiver of Flux's event API, as notification-controller receives
// them: an applied object's as info, with its revision, one whose source
// is missing as error; the Kubernetes Events stay.
func TestEventsAddrInCluster(t *testing.T) {
	w := newWorld(t)
	sink := newEventSink(t)
	p, err := fluxevents.New(sink.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	w.cfg.Events = p
	w.ctrl = controller.New(w.cfg)
	w.apply(w.module("helloworld-events", "hello-world", "0.1.0"))
	missing := w.module("events-no-source", "hello-world", "0.1.0")
	missing.Spec.SourceRef.Name = "not-there"
	w.apply(missing)
	w.reconcile()
	applied := w.get("helloworld-events")
	find := func(name, severity string) *eventv1.Event { return sink.find("", w.ns, name, severity) }
	waitFor(t, time.Minute, "both objects' events posted", func() (bool, error) {
		return find("helloworld-events", eventv1.EventSeverityInfo) != nil && find("events-no-source", eventv1.EventSeverityError) != nil, nil
	})
	ok := find("helloworld-events", eventv1.EventSeverityInfo)
	if ok.Reason != v1alpha2.ReasonApplySucceeded || !strings.HasPrefix(ok.Message, "Applied successfully") || ok.Metadata["infra.contrib.fluxcd.io/revision"] != applied.Status.LastAttemptedRevision ||
		ok.ReportingController != "tf-controller" || string(ok.InvolvedObject.UID) != string(applied.UID) {
		t.Errorf("the applied object's event = %+v, want %s, its revision %s, from tf-controller", ok, v1alpha2.ReasonApplySucceeded, applied.Status.LastAttemptedRevision)
	}
	if bad := find("events-no-source", eventv1.EventSeverityError); bad.Reason != v1alpha2.ReasonArtifactFailed {
		t.Errorf("the object without a source's event = %+v, want %s", bad, v1alpha2.ReasonArtifactFailed)
	}
	if evs := w.events("helloworld-events", ""); len(evs) == 0 {
		t.Error("no Kubernetes Event for the applied object: they must stay")
	}
}

// eventSink receives Flux's events over HTTP, as notification-controller
// does, or a generic Provider's address: each event with the path it was
// posted to.
type eventSink struct {
	*httptest.Server
	mu  sync.Mutex
	got []postedEvent
}

type postedEvent struct {
	path  string
	event eventv1.Event
}

func newEventSink(t *testing.T) *eventSink {
	t.Helper()
	s := &eventSink{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var e eventv1.Event
		if err := json.NewDecoder(r.Body).Decode(&e); err != nil {
			http.Error(rw, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.got = append(s.got, postedEvent{r.URL.Path, e})
		s.mu.Unlock()
		rw.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(s.Close)
	return s
}

// find is the first event posted to path ("" for any) about the
// Terraform object ns/name with severity; nil when none was.
func (s *eventSink) find(path, ns, name, severity string) *eventv1.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.got {
		e := p.event
		if (path == "" || p.path == path) && e.InvolvedObject.Kind == v1alpha2.Kind && e.InvolvedObject.Name == name &&
			e.InvolvedObject.Namespace == ns && e.Severity == severity {
			return &e
		}
	}
	return nil
}
