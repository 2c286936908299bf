package fluxevents

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	eventv1 "github.com/fluxcd/pkg/apis/event/v1beta1"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

// TestPost: an event reaches the receiver as Flux's event API takes it,
// Normal as info and Warning as error, and a receiver that fails at first
// is tried again.
func TestPost(t *testing.T) {
	tests := []struct {
		name, eventType, wantSeverity string
		failFirst                     int32
	}{
		{"a Normal event", corev1.EventTypeNormal, eventv1.EventSeverityInfo, 0},
		{"a Warning event, after two refusals", corev1.EventTypeWarning, eventv1.EventSeverityError, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			got := make(chan eventv1.Event, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) <= tt.failFirst {
					http.Error(w, "not yet", http.StatusServiceUnavailable)
					return
				}
				var e eventv1.Event
				if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&e) != nil {
					http.Error(w, "bad event", http.StatusBadRequest)
					return
				}
				got <- e
				w.WriteHeader(http.StatusAccepted)
			}))
			defer srv.Close()
			p, err := New(srv.URL + "/")
			if err != nil {
				t.Fatal(err)
			}
			p.wait = time.Millisecond
			obj := Object{APIVersion: "infra.contrib.fluxcd.io/v1alpha2", Kind: "Terraform", Namespace: "flux-system", Name: "app", UID: "u-1"}
			if err := p.Post(context.Background(), obj, tt.eventType, "TerraformAppliedSucceed", "Applied successfully: main@sha1:abc", map[string]string{"revision": "main@sha1:abc"}); err != nil {
				t.Fatalf("Post(%s) = %v", tt.name, err)
			}
			e := <-got
			want := eventv1.Event{
				InvolvedObject: corev1.ObjectReference{APIVersion: obj.APIVersion, Kind: "Terraform", Namespace: "flux-system", Name: "app", UID: "u-1"},
				Severity:       tt.wantSeverity, Message: "Applied successfully: main@sha1:abc", Reason: "TerraformAppliedSucceed",
				Metadata: map[string]string{"infra.contrib.fluxcd.io/revision": "main@sha1:abc"}, ReportingController: "tf-controller", ReportingInstance: p.instance,
			}
			e.Timestamp = want.Timestamp
			if diff := cmp.Diff(want, e); diff != "" {
				t.Errorf("Post(%s) event (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestPostFails: a receiver that never takes the event is an error that
// names it; an address that is not a URL is refused.
func TestPostFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone", http.StatusGone)
	}))
	defer srv.Close()
	p, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	p.wait = time.Millisecond
	if err := p.Post(context.Background(), Object{Kind: "Terraform", Namespace: "ns", Name: "x"}, "Normal", "R", "m", nil); err == nil {
		t.Errorf("Post to a receiver that refuses = nil, want an error")
	}
	if _, err := New("notification-controller:80"); err == nil {
		t.Errorf(`New("notification-controller:80") = nil error, want one: no scheme`)
	}
}
