//go:build kube

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/fluxevents"
	"github.com/strata-iac/strata/orchestrator/kube"
	"github.com/strata-iac/strata/orchestrator/probe"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/shard"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

func newControllerCommand(g *globals) *cobra.Command {
	f := &runFlags{}
	lf := &leaderFlags{}
	rf := &runnerFlags{}
	records := &recordsFlags{}
	var namespaces []string
	var interval time.Duration
	var allowCrossNS, noCrossNS bool
	var healthAddr, selector, eventsAddr string
	cmd := &cobra.Command{
		Use:   "controller --namespace NS",
		Short: controllerShort,
		Long: `controller watches the Terraform objects (infra.contrib.fluxcd.io/v1alpha2)
that Flux applies to the namespaces it is given, and reconciles each
namespace as strata apply reconciles an environment: the same sources,
graph, policy, contracts and skip-unchanged. A stack's code is the artifact
source-controller made of its spec.sourceRef, checked against its digest.
Each object's status is written as the Tofu Controller writes it (Ready,
Plan, Apply and Output conditions, status.plan.pending, the revisions,
availableOutputs), with Events; spec.approvePlan set to a pending plan's
id approves it; writeOutputsToSecret writes the outputs to a Secret. An
object deleted with spec.destroyResourcesOnDeletion keeps its finalizer
until its destroy plan, which goes through policy, is applied. A
spec.sourceRef into another namespace is refused (AccessDenied), as the
Tofu Controller refuses it, unless --allow-cross-namespace-refs is given.

It runs in the cluster (its service account's configuration) or outside it
with --kubeconfig. With --leader-elect (the default), only the replica that
holds the Lease reconciles.

With --health-addr it serves the kubelet's probes there: GET /healthz
answers 200 "ok" while the process runs; GET /readyz answers 200 once the
replica has read the Lease, whether it leads or follows (the body says
which), and 503 while it has seen no leader. Without --leader-elect it is
ready at once.

The history, held plans and approvals of each namespace are objects in that
namespace (ConfigMaps and Secrets labelled strata.dev/record), which every
replica and every runner pod read and write; strata status, history,
versions and approve read them with --kubeconfig and --namespace. With
--records s3://bucket/prefix they are objects in that S3 bucket instead,
for every namespace, and runner Jobs are given the same location: their
service account needs access to the bucket, or --runner-env-from-secret
names a Secret of each namespace holding the runners' credentials
(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), which runner pods get as their
environment. The controller's environment of namespace NS is client NS,
environment NS: strata history and approve name it with an empty directory
environments/NS/NS.

Shards. Like Flux's controllers, a controller reconciles only the
Terraform objects (and reads only the Flux sources) whose labels match
--watch-label-selector. By default that is every object without the
sharding.fluxcd.io/key label; a second controller started with
--watch-label-selector 'sharding.fluxcd.io/key in (shard1)' takes the
objects labelled sharding.fluxcd.io/key: shard1, with its own Lease
(strata-shard1 unless --leader-elect-name names one), its own runner
limit (--max-runners counts its own runner Jobs) and its own runner Jobs
(labelled strata.dev/shard: shard1). ConfigMaps and Secrets are read
whatever their labels. The records of a namespace are kept per stack, so
an object moved to another shard keeps its history and its held plans. A
spec.dependsOn or spec.sourceRef naming another shard's object is an
error that names the shard. See docs/cluster-mode.md, "Shards".`,
		Example: `  strata controller --namespace flux-system
  strata controller --kubeconfig ~/.kube/config --namespace team-a --namespace team-b --max-runners 10
  strata controller --namespace flux-system --records s3://acme-strata/records --runner-env-from-secret strata-runner-aws
  strata controller --namespace flux-system --watch-label-selector 'sharding.fluxcd.io/key in (shard1)'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := g.checkOutput("text"); err != nil {
				return err
			}
			if err := checkNamespaces("controller: give at least one --namespace to watch", namespaces); err != nil {
				return err
			}
			if interval <= 0 {
				return usageError("--interval is %s: it must be more than 0", interval)
			}
			if err := f.check(cmd); err != nil {
				return err
			}
			if err := lf.check(cmd); err != nil {
				return err
			}
			if err := rf.check(); err != nil {
				return err
			}
			if len(f.policyDirs) > 0 && rf.runners == runnersJobs {
				// A runner pod judges its own plan, and has none of this
				// machine's directories: the rules would not be applied.
				return usageError("--policy %s: runner Jobs judge their plans in their pods, which do not have this process's policy directories; give --runners in-process to judge with them, or leave out --policy", strings.Join(f.policyDirs, ", "))
			}
			if err := records.check(); err != nil {
				return err
			}
			sh, err := shard.Parse(selector)
			if err != nil {
				return usageError("--watch-label-selector: %v: give a selector as kubectl's --selector reads one, such as 'sharding.fluxcd.io/key in (shard1)'", err)
			}
			if !cmd.Flags().Changed("leader-elect-name") {
				lf.name = sh.LeaseName(lf.name)
			}
			bin, err := tofu.Find(f.tofu)
			if err != nil {
				return err
			}
			client, err := kube.New(lf.kubeconfig)
			if err != nil {
				return fmt.Errorf("controller: %w", err)
			}
			client = client.WithShard(sh)
			log := g.logger()
			if !sh.IsDefault() {
				log.Info(fmt.Sprintf("shard %s: reconciling the Terraform objects that match %s", sh.Name(), sh))
			}
			executor, err := rf.executor(lf.kubeconfig, f.maxRunners, records.location, f.noDefaultPolicy, sh, log)
			if err != nil {
				return err
			}
			opts := f.options(cmd, g, bin, log)
			opts.RetryWait = true
			held := filepath.Join(cmp.Or(g.stateDir, os.TempDir()), "cluster-held")
			opts.Records = namespaceRecords(lf.kubeconfig, held)
			if records.location != "" {
				if opts.Records, err = records.leaderRecords(cmd.Context(), held); err != nil {
					return err
				}
			}
			var events controller.Notifier
			if eventsAddr != "" {
				p, err := fluxevents.New(eventsAddr)
				if err != nil {
					return usageError("--events-addr: %v", err)
				}
				events = p
			}
			ctrl := controller.New(controller.Config{
				Cluster:            client,
				Namespaces:         namespaces,
				Interval:           interval,
				Logger:             log,
				Executor:           executor,
				Pipeline:           reconcile.Pipeline{Options: opts},
				CrossNamespaceRefs: crossNamespaceRefs(cmd, allowCrossNS, noCrossNS),
				Shard:              sh.String(),
				Events:             events,
			})
			elector, err := lf.elector("controller", log)
			if err != nil {
				return err
			}
			ready := probe.Check(func() (string, error) { return "reconciles", nil })
			if elector != nil {
				ready = probe.Election(elector)
			}
			stopProbes, err := serveProbes(cmd.Context(), healthAddr, ready, log)
			if err != nil {
				return err
			}
			if elector == nil {
				return errors.Join(ctrl.Run(cmd.Context()), stopProbes())
			}
			var runErr error
			if err := elector.Lead(cmd.Context(), func(ctx context.Context) { runErr = ctrl.Run(ctx) }); err != nil {
				return errors.Join(err, stopProbes())
			}
			return errors.Join(runErr, stopProbes())
		},
	}
	cmd.AddCommand(newControllerCheckCommand(g))
	f.register(cmd)
	lf.registerDefault(cmd, true)
	rf.register(cmd)
	records.registerLocation(cmd)
	cmd.Flags().StringArrayVar(&namespaces, "namespace", nil, "namespace whose Terraform objects to reconcile (repeat for more)")
	cmd.Flags().DurationVar(&interval, "interval", controller.DefaultInterval, "how often every namespace is reconciled when nothing in it changed")
	cmd.Flags().BoolVar(&allowCrossNS, "allow-cross-namespace-refs", false,
		"let a Terraform object's spec.sourceRef name a source of another namespace, as the Tofu Controller's flag does (overrides --no-cross-namespace-refs)")
	cmd.Flags().BoolVar(&noCrossNS, "no-cross-namespace-refs", false,
		"refuse a spec.sourceRef into another namespace (the default); --no-cross-namespace-refs=false allows them, as in the Tofu Controller")
	cmd.Flags().StringVar(&eventsAddr, "events-addr", "",
		"post each Terraform object's events to Flux's notification-controller at this URL too (e.g. http://notification-controller.flux-system.svc.cluster.local./), as the Tofu Controller's flag does, for Alerts on Terraform objects; the Kubernetes Events stay")
	cmd.Flags().StringVar(&healthAddr, "health-addr", "", "address to serve /healthz and /readyz on, for the kubelet's probes (default: none)")
	cmd.Flags().StringVar(&selector, "watch-label-selector", shard.Default,
		"reconcile only the Terraform objects, and read only the Flux sources, whose labels match this selector, as Flux's sharded controllers do; \"\" for every object")
	return cmd
}

// checkNamespaces refuses an empty --namespace list (none says so) and a
// --namespace that is not a namespace's name.
func checkNamespaces(none string, namespaces []string) error {
	if len(namespaces) == 0 {
		return usageError("%s", none)
	}
	for _, ns := range namespaces {
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return usageError("--namespace %q is not a namespace name: %s", ns, errs[0])
		}
	}
	return nil
}

// crossNamespaceRefs decides, as the Tofu Controller does, whether a
// spec.sourceRef may name another namespace's source: refused unless
// --allow-cross-namespace-refs is given, or, without it,
// --no-cross-namespace-refs=false.
func crossNamespaceRefs(cmd *cobra.Command, allow, no bool) bool {
	if !cmd.Flags().Changed("allow-cross-namespace-refs") && cmd.Flags().Changed("no-cross-namespace-refs") {
		return !no
	}
	return allow
}

// serveProbes serves /healthz and /readyz on addr until the returned stop
// is called; with no addr, nothing.
func serveProbes(ctx context.Context, addr string, ready probe.Check, log *slog.Logger) (stop func() error, err error) {
	if addr == "" {
		return func() error { return nil }, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("controller: listen on --health-addr %s: %w", addr, err)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan error, 1)
	go func() { served <- probe.Serve(ctx, ln, ready) }()
	log.Info(fmt.Sprintf("serving /healthz and /readyz on http://%s", ln.Addr()))
	return func() error { cancel(); return <-served }, nil
}
