//go:build k8s

package controller_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	eventv1 "github.com/fluxcd/pkg/apis/event/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/fluxevents"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

var (
	alerts    = schema.GroupVersionResource{Group: "notification.toolkit.fluxcd.io", Version: "v1beta3", Resource: "alerts"}
	providers = schema.GroupVersionResource{Group: "notification.toolkit.fluxcd.io", Version: "v1beta3", Resource: "providers"}
)

// TestAlertInCluster: a Flux Alert on Terraform objects receives strata's
// events. A real notification-controller (built from its Go module) takes
// the events strata posts with --events-addr; an Alert on every Terraform
// object of the namespace sends them through a generic Provider to a
// receiver here. The Alert CRD lists Terraform among its event sources'
// kinds, as Flux's guide for third-party controllers has users patch it.
// The applied object's event and the failed one's both arrive, with the
// Tofu Controller's reasons and the revision (which notification-controller
// keeps only under the object's API group, and hands the provider without
// it); an Alert of error severity only gets the failure.
func TestAlertInCluster(t *testing.T) {
	w := newWorld(t)
	installCRDs(t, w.c, notificationCRDs(t))
	events := testkit.FreeAddr(t)
	startFluxController(t, w.c, w.ns, notificationControllerBinary(t), func() []string {
		return []string{"--events-addr=" + events, "--receiverAddr=" + testkit.FreeAddr(t)}
	})

	sink := newEventSink(t)
	w.notification(providers, "receiver", map[string]any{"type": "generic", "address": sink.URL + "/all"})
	w.notification(providers, "errors", map[string]any{"type": "generic", "address": sink.URL + "/errors"})
	w.notification(alerts, "terraform", map[string]any{
		"providerRef":  map[string]any{"name": "receiver"},
		"eventSources": []any{map[string]any{"kind": "Terraform", "name": "*"}},
	})
	w.notification(alerts, "terraform-errors", map[string]any{
		"providerRef":   map[string]any{"name": "errors"},
		"eventSeverity": "error",
		"eventSources":  []any{map[string]any{"kind": "Terraform", "name": "*"}},
	})

	p, err := fluxevents.New("http://" + events + "/")
	if err != nil {
		t.Fatal(err)
	}
	w.cfg.Events = p
	w.ctrl = controller.New(w.cfg)
	w.apply(w.module("alerted", "hello-world", "0.1.0"))
	missing := w.module("alerted-no-source", "hello-world", "0.1.0")
	missing.Spec.SourceRef.Name = "not-there"
	w.apply(missing)
	w.reconcile()

	find := func(path, name, severity string) *eventv1.Event { return sink.find(path, w.ns, name, severity) }
	waitFor(t, 2*time.Minute, "the Alerts' notifications", func() (bool, error) {
		return find("/all", "alerted", eventv1.EventSeverityInfo) != nil &&
			find("/all", "alerted-no-source", eventv1.EventSeverityError) != nil &&
			find("/errors", "alerted-no-source", eventv1.EventSeverityError) != nil, nil
	})
	applied := w.get("alerted")
	if e := find("/all", "alerted", eventv1.EventSeverityInfo); e.Reason != v1alpha2.ReasonApplySucceeded || !strings.HasPrefix(e.Message, "Applied successfully") ||
		e.Metadata["revision"] != applied.Status.LastAttemptedRevision || e.ReportingController != "tf-controller" {
		t.Errorf("the applied object's notification = %+v, want %s from tf-controller with revision %s", e, v1alpha2.ReasonApplySucceeded, applied.Status.LastAttemptedRevision)
	}
	if e := find("/all", "alerted-no-source", eventv1.EventSeverityError); e.Reason != v1alpha2.ReasonArtifactFailed {
		t.Errorf("the failed object's notification = %+v, want %s", e, v1alpha2.ReasonArtifactFailed)
	}
	if e := find("/errors", "alerted", eventv1.EventSeverityInfo); e != nil {
		t.Errorf("the error-only Alert received an info event: %+v", e)
	}
}

// notification creates an object of notification-controller's API in the
// world's namespace.
func (w *world) notification(gvr schema.GroupVersionResource, name string, spec map[string]any) {
	w.t.Helper()
	kind := map[string]string{"alerts": "Alert", "providers": "Provider"}[gvr.Resource]
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": gvr.GroupVersion().String(), "kind": kind,
		"metadata": map[string]any{"name": name, "namespace": w.ns},
		"spec":     spec,
	}}
	if _, err := w.dyn.Resource(gvr).Namespace(w.ns).Create(context.Background(), u, metav1.CreateOptions{}); err != nil {
		w.t.Fatalf("create %s %s: %v", kind, name, err)
	}
}

func notificationControllerBinary(t *testing.T) string {
	t.Helper()
	return fluxControllerBinary(t, "notification-controller", "STRATA_NOTIFICATION_CONTROLLER")
}

// notificationCRDs writes notification-controller's CRDs to files for
// installCRDs, with Terraform added to the kinds an Alert's event sources
// (and a Receiver's resources) may name, as Flux's guide to third-party
// controllers' notifications has users patch them.
func notificationCRDs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, f := range crdFiles(t, notificationControllerBinary(t)+"-crds") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var crd map[string]any
		if err := yaml.Unmarshal(b, &crd); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		addKind(crd, "Terraform")
		out, err := yaml.Marshal(crd)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), filepath.Base(f))
		if err := os.WriteFile(p, out, 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	return files
}

// addKind adds kind to every enum of Flux kinds in a CRD's schemas (those
// that list Kustomization).
func addKind(v any, kind string) {
	switch v := v.(type) {
	case map[string]any:
		if enum, ok := v["enum"].([]any); ok && containsAny(enum, "Kustomization") && !containsAny(enum, kind) {
			v["enum"] = append(enum, kind)
		}
		for _, c := range v {
			addKind(c, kind)
		}
	case []any:
		for _, c := range v {
			addKind(c, kind)
		}
	}
}

func containsAny(list []any, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
