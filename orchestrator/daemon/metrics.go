package daemon

import (
	"net/http"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
)

// Metric result labels of strata_reconcile_total.
const (
	ReconcileOK    = "ok"
	ReconcileError = "error"
)

// metrics are the daemon's counters and histogram; the gauges of the
// current state are read from the daemon when scraped (stateCollector).
type metrics struct {
	reconciles *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	stackRuns  *prometheus.CounterVec
}

// newMetrics registers the daemon's metrics in a registry of its own, with
// the Go runtime's and the process's.
func newMetrics(d *Daemon) (*prometheus.Registry, *metrics) {
	m := &metrics{
		reconciles: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "strata_reconcile_total",
			Help: `Reconciles of an environment. result is "ok" when the reconcile ran (whatever its stacks did; see strata_stack_runs_total), "error" when it could not (an invalid environment, a state directory that cannot be opened).`,
		}, []string{"client", "environment", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "strata_reconcile_duration_seconds",
			Help:    "How long a reconcile of an environment took.",
			Buckets: []float64{1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600},
		}, []string{"client", "environment"}),
		stackRuns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "strata_stack_runs_total",
			Help: "Stacks reconciled, by the result they ended with; a stack counts once per reconcile, unchanged ones included.",
		}, []string{"client", "environment", "stack", "result"}),
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		m.reconciles, m.duration, m.stackRuns,
		stateCollector{d},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return reg, m
}

// observe counts a finished reconcile.
func (m *metrics) observe(client, env string, rep *report.Report, err error, took time.Duration) {
	result := ReconcileOK
	if err != nil {
		result = ReconcileError
	}
	m.reconciles.WithLabelValues(client, env, result).Inc()
	m.duration.WithLabelValues(client, env).Observe(took.Seconds())
	if err != nil || rep == nil {
		return
	}
	for _, s := range rep.Stacks {
		m.stackRuns.WithLabelValues(client, env, s.Stack, string(s.Result)).Inc()
	}
}

var (
	lastResultDesc = prometheus.NewDesc("strata_stack_last_result",
		"The result of the stack's last reconcile: one series per possible result, 1 for the stack's current one and 0 for the others.",
		[]string{"client", "environment", "stack", "result"}, nil)
	changesDesc = prometheus.NewDesc("strata_stack_changes",
		"Resource changes of the stack's last reconcile, planned or applied (0 for a stack that was unchanged); kind is add, change or destroy.",
		[]string{"client", "environment", "stack", "kind"}, nil)
	readyDesc = prometheus.NewDesc("strata_ready",
		"1 when every stack's last reconcile succeeded or waits on an upstream by design, as /readyz answers 200; 0 otherwise.",
		nil, nil)
)

// stateCollector reports the daemon's current state when scraped, so that
// a stack that left an environment leaves the metrics with it.
type stateCollector struct{ d *Daemon }

func (c stateCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- lastResultDesc
	ch <- changesDesc
	ch <- readyDesc
}

func (c stateCollector) Collect(ch chan<- prometheus.Metric) {
	ready, _ := c.d.Ready()
	ch <- prometheus.MustNewConstMetric(readyDesc, prometheus.GaugeValue, boolValue(ready))

	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	seen := map[[2]string]bool{}
	for _, e := range c.d.envs {
		// Two directories that name the same client and environment
		// would report the same series twice.
		if e.report == nil || seen[[2]string{e.client, e.name}] {
			continue
		}
		seen[[2]string{e.client, e.name}] = true
		for _, s := range e.report.Stacks {
			// One series per result strata knows, and the stack's own
			// should it be another.
			results := history.Results
			if !slices.Contains(results, s.Result) {
				results = append(slices.Clip(results), s.Result)
			}
			for _, r := range results {
				ch <- prometheus.MustNewConstMetric(lastResultDesc, prometheus.GaugeValue, boolValue(r == s.Result),
					e.client, e.name, s.Stack, string(r))
			}
			ch <- prometheus.MustNewConstMetric(changesDesc, prometheus.GaugeValue, float64(s.Summary.Add), e.client, e.name, s.Stack, "add")
			ch <- prometheus.MustNewConstMetric(changesDesc, prometheus.GaugeValue, float64(s.Summary.Change), e.client, e.name, s.Stack, "change")
			ch <- prometheus.MustNewConstMetric(changesDesc, prometheus.GaugeValue, float64(s.Summary.Destroy), e.client, e.name, s.Stack, "destroy")
		}
	}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (d *Daemon) metricsHandler() http.Handler {
	return promhttp.HandlerFor(d.reg, promhttp.HandlerOpts{Registry: d.reg})
}
