//go:build kube

package main

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/shard"
)

// Where strata controller runs tofu.
const (
	runnersJobs      = "jobs"
	runnersInProcess = "in-process"
)

// runnerFlags choose where strata controller's runs go.
type runnerFlags struct {
	runners, image, pullPolicy, apiServer, envFromSecret string
	// unreadTTL is every runner Job's backstop ttlSecondsAfterFinished.
	unreadTTL time.Duration
	// refusedTimeout is how long a runner pod may be refused before the
	// run is given up.
	refusedTimeout time.Duration
}

func (f *runnerFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.runners, "runners", "",
		"where each run goes: jobs (a Kubernetes Job running strata runner; the default inside a cluster) or in-process (tofu in this process; the default outside one)")
	cmd.Flags().StringVar(&f.image, "runner-image", "", "strata's image, which runner Jobs run (default: the image of the pod strata runs in)")
	cmd.Flags().StringVar(&f.pullPolicy, "runner-image-pull-policy", "", "the runner container's imagePullPolicy: Always, IfNotPresent or Never (default: Kubernetes')")
	cmd.Flags().StringVar(&f.apiServer, "runner-api-server", "",
		"HOST:PORT of the API server for runner pods, which then run on the node's network: for a cluster without a Service proxy (default: the kubernetes Service)")
	cmd.Flags().StringVar(&f.envFromSecret, "runner-env-from-secret", "",
		"a Secret of each watched namespace whose keys become the runner pods' environment: credentials their service account does not give, such as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for --records s3://…")
	cmd.Flags().DurationVar(&f.unreadTTL, "runner-job-ttl", jobs.DefaultUnreadTTL,
		"how long a finished runner Job stays when no leader records its outcome (strata removed from the cluster, no leader for that long), before Kubernetes deletes it: a backstop: a leader records the outcome and deletes the Job at the end of its pass")
	cmd.Flags().DurationVar(&f.refusedTimeout, "runner-pod-refused-timeout", jobs.DefaultRefusedTimeout,
		"how long the API server may refuse a runner Job's pod (a missing PriorityClass, a full ResourceQuota, a webhook) before the run is given up: the Job is deleted, the run recorded as failed (Ready False, RunnerPodRefused) and retried at the object's spec.retryInterval")
}

// check refuses a value out of range, and decides the default.
func (f *runnerFlags) check() error {
	switch f.runners {
	case "":
		f.runners = runnersInProcess
		if os.Getenv("KUBERNETES_SERVICE_HOST") != "" {
			f.runners = runnersJobs
		}
	case runnersJobs, runnersInProcess:
	default:
		return usageError("--runners is %q: it must be jobs or in-process", f.runners)
	}
	switch f.pullPolicy {
	case "", "Always", "IfNotPresent", "Never":
	default:
		return usageError("--runner-image-pull-policy is %q: it must be Always, IfNotPresent or Never", f.pullPolicy)
	}
	if f.unreadTTL < time.Minute {
		return usageError("--runner-job-ttl is %s: it must be at least 1m, long enough for a leader to record a finished Job's outcome before Kubernetes deletes the Job", f.unreadTTL)
	}
	if f.refusedTimeout <= 0 {
		return usageError("--runner-pod-refused-timeout is %s: it must be more than 0", f.refusedTimeout)
	}
	if f.envFromSecret != "" {
		if errs := validation.IsDNS1123Subdomain(f.envFromSecret); len(errs) > 0 {
			return usageError("--runner-env-from-secret %q is not a Secret name: %s", f.envFromSecret, errs[0])
		}
		if f.runners != runnersJobs {
			return usageError("--runner-env-from-secret is for runner Jobs: give --runners jobs, or leave it out (in process, runs have this process's environment)")
		}
	}
	return nil
}

// executor makes the controller's executor of runs: nil (in process), or
// runner Jobs, at most maxRunners in flight across the cluster.
//
// With records (--records), runner pods keep their runs in that bucket,
// reached as this process reaches it, instead of the object's namespace.
// With noDefaultPolicy (--no-default-policy), they judge plans without the
// default bundle, as this process does.
func (f *runnerFlags) executor(kubeconfig string, maxRunners int, records string, noDefaultPolicy bool, sh shard.Shard, log *slog.Logger) (func(runner.Config) controller.Executor, error) {
	if f.runners != runnersJobs {
		return nil, nil
	}
	cfg := jobs.Config{
		Kubeconfig:      kubeconfig,
		Image:           f.image,
		ImagePullPolicy: corev1.PullPolicy(f.pullPolicy),
		MaxRunners:      maxRunners,
		APIServer:       f.apiServer,
		Logger:          log,
		Records:         records,
		EnvFromSecret:   f.envFromSecret,
		UnreadTTL:       f.unreadTTL,
		RefusedTimeout:  f.refusedTimeout,
		Shard:           sh,
		NoDefaultPolicy: noDefaultPolicy,
	}
	if records != "" {
		cfg.RecordsEnv = recordsEnv()
	}
	l, err := jobs.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("controller: %w", err)
	}
	return func(cfg runner.Config) controller.Executor { return jobs.ExecutorFor(l, cfg) }, nil
}
