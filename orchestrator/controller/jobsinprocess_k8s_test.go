//go:build k8s

package controller_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// jobsController is a leader as `strata controller --runners jobs` makes
// one, in this process: its runs are runner Jobs in strata's image, its
// records the namespace's (which runner pods write too), its state
// directory its own, and cluster its way to the API (the world's client,
// or a test's hook around it). Its lines go to log; settings change the
// launcher's configuration.
func (w *world) jobsController(t *testing.T, name string, cluster controller.Cluster, log *testkit.Buffer, settings ...func(*jobs.Config)) *controller.Controller {
	t.Helper()
	cfg := jobs.Config{
		Kubeconfig: w.c.Kubeconfig, Image: w.c.StrataImage(t), ImagePullPolicy: corev1.PullNever,
		APIServer: "127.0.0.1:6443", Poll: 250 * time.Millisecond, Logger: runlog.New(log, nil),
	}
	for _, set := range settings {
		set(&cfg)
	}
	l, err := jobs.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := kuberecords.New(kuberecords.Config{Kubeconfig: w.c.Kubeconfig, Namespace: w.ns, Dir: t.TempDir(), Writer: name})
	if err != nil {
		t.Fatal(err)
	}
	return controller.New(controller.Config{
		Cluster:    cluster,
		Namespaces: []string{w.ns},
		Pipeline: reconcile.Pipeline{Options: reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: t.TempDir(), DriftInterval: time.Hour, RetryWait: true,
			Records: envstores.LeaderRecords(recs), Logger: runlog.New(log, nil),
		}},
		Logger:   runlog.New(log, nil),
		Executor: func(cfg runner.Config) controller.Executor { return jobs.ExecutorFor(l, cfg) },
	})
}

// events are the Events of the world's Terraform object name with reason
// (all of its Events when reason is "").
func (w *world) events(name, reason string) []corev1.Event {
	w.t.Helper()
	sel := fields.Set{"involvedObject.kind": "Terraform", "involvedObject.name": name}
	if reason != "" {
		sel["reason"] = reason
	}
	list, err := w.c.Client.CoreV1().Events(w.ns).List(context.Background(), metav1.ListOptions{FieldSelector: sel.String()})
	if err != nil {
		w.t.Fatal(err)
	}
	return list.Items
}
