package main

import (
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/internal/awsconfig"
	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// globals are the flags every command shares.
type globals struct {
	stdout, stderr io.Writer
	output         string
	stateDir       string
	verbose        bool
	// sopsAgeKeyFile is --sops-age-key-file.
	sopsAgeKeyFile string
	// inputs are --inputs: manifests of the ConfigMaps and Secrets that
	// live only in the cluster; strictSubstitution is
	// --strict-substitution.
	inputs             []string
	strictSubstitution bool
	// featureGates is --feature-gates: kustomize-controller's gates.
	featureGates string
	// inputsKubeconfig and inputsContext are --kubeconfig and --context
	// of the commands whose cluster is their inputs' (registerClusterInputs).
	inputsKubeconfig, inputsContext string
	// selfSources are --self-source.
	selfSources []string
	// remoteTimeout is --remote-timeout.
	remoteTimeout time.Duration
	// kubeTimeout and awsTimeout are --kube-timeout and --aws-timeout,
	// which set deadline.Kube and awsconfig.Timeout before a command runs.
	kubeTimeout, awsTimeout time.Duration
}

func newRootCommand(stdout, stderr io.Writer) *cobra.Command {
	g := &globals{stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:   "strata",
		Short: "GitOps orchestrator for many OpenTofu stacks across many client environments",
		Long: `strata reconciles a Flux repository's client environments
(environments/<client>/<env>): it resolves each stack's code, runs the
stacks in layers as a dependency graph with a bounded number of tofu
processes, publishes every stack's outputs as a JSON contract for the
stacks that read it, and records every run.

An environment is the directory that holds its init.yaml, for example
environments/demo/dev. State, contracts and history live in the state
directory: .strata/ at the repository root unless --state-dir says otherwise.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// An argument that names no command is a usage error.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.PersistentFlags().StringVarP(&g.output, "output", "o", "text", "output format: text or json (graph also takes dot and mermaid; plan, apply and diff markdown)")
	root.PersistentFlags().StringVar(&g.stateDir, "state-dir", "", "directory for state, contracts, history and workspaces (default: .strata/ at the repository root)")
	root.PersistentFlags().BoolVarP(&g.verbose, "verbose", "v", false, "log debug lines too")
	root.PersistentFlags().StringVar(&g.sopsAgeKeyFile, "sops-age-key-file", "",
		"file of age identities that decrypt SOPS-encrypted Secrets, on top of $"+decryption.EnvAgeKeyFile+", $"+decryption.EnvAgeKey+" and ~/.config/sops/age/keys.txt")
	root.PersistentFlags().StringArrayVar(&g.inputs, "inputs", nil,
		"file or directory of ConfigMap and Secret manifests (plain or SOPS-encrypted) that live only in the cluster, for what the repository names but does not hold (repeatable)")
	root.PersistentFlags().BoolVar(&g.strictSubstitution, "strict-substitution", false,
		"substitute every object as Flux does with its StrictPostBuildSubstitutions feature gate: a variable that is missing and has no default is a problem of its Kustomization, which blocks the stacks it brings in, not an empty string; a warning when that Kustomization brings in no stack (validate --strict counts it)")
	root.PersistentFlags().StringVar(&g.featureGates, "feature-gates", "",
		"kustomize-controller's feature gates, as the cluster's controller has them, that change a render: Name=true|false,… (StrictPostBuildSubstitutions, the same as --strict-substitution; ObjectLevelWorkloadIdentity, without which a spec.decryption.serviceAccountName stalls its Kustomization)")
	root.PersistentFlags().StringArrayVar(&g.selfSources, "self-source", nil,
		"GitRepository/<namespace>/<name>: that GitRepository is this repository, read from the checkout (repeatable); a GitRepository whose spec.url is one of the checkout's git remotes is without it")
	root.PersistentFlags().DurationVar(&g.remoteTimeout, "remote-timeout", flux.DefaultRemoteTimeout,
		"how long the fetch of one https:// manifest a kustomization lists may take (connect, request and body); past it the copy kept from the last fetch is used, with a warning, or the Kustomization waits")
	root.PersistentFlags().DurationVar(&g.awsTimeout, "aws-timeout", awsconfig.EnvTimeoutOrDefault(),
		"how long a request to S3 or SSM (contracts, records, state) may wait for its answer to start, each attempt ($"+awsconfig.EnvTimeout+" sets its default)")
	root.PersistentFlags().DurationVar(&g.kubeTimeout, "kube-timeout", deadline.DefaultKube,
		"how long a request to the Kubernetes API server may wait for its answer to start (a watch or a log stream then flows as long as it does)")
	// Every command that loads an environment decrypts with the same
	// keys, and loads with the same options: they travel in the context.
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		// What only strata-kube does runs there, before anything is done
		// here.
		if err := forwardToKube(cmd); err != nil {
			return err
		}
		if g.sopsAgeKeyFile != "" {
			if err := decryption.CheckAgeKeyFile(cmd.Context(), g.sopsAgeKeyFile); err != nil {
				return usageError("--sops-age-key-file: %v", err)
			}
		}
		for _, f := range []struct {
			name string
			d    time.Duration
		}{{"remote-timeout", g.remoteTimeout}, {"kube-timeout", g.kubeTimeout}, {"aws-timeout", g.awsTimeout}} {
			if f.d <= 0 {
				return usageError("--%s %s: want a duration above zero, such as 30s", f.name, f.d)
			}
		}
		// Every client made from here on waits this long for an answer.
		deadline.SetKube(g.kubeTimeout)
		awsconfig.SetTimeout(g.awsTimeout)
		for _, s := range g.selfSources {
			if _, err := flux.ParseSelfSource(s); err != nil {
				return usageError("--self-source: %v", err)
			}
		}
		ctx := decryption.WithKeys(cmd.Context(), decryption.Keys{AgeKeyFile: g.sopsAgeKeyFile})
		cmd.SetContext(ctx)
		opts, err := g.loadOptions(cmd)
		if err != nil {
			return err
		}
		cmd.SetContext(flux.WithOptions(ctx, opts))
		return nil
	}
	validate, graph, diff, status, hist, versions, version := newValidateCommand(g), newGraphCommand(g), newDiffCommand(g), newStatusCommand(g), newHistoryCommand(g), newVersionsCommand(g), newVersionCommand(g)
	// Commands that write nothing but temporary files, which they
	// register with atForcedExit (diff's checkout), and files written
	// whole or not at all: a signal ends them within readOnlyGrace
	// whatever they are doing.
	readOnly(validate, graph, diff, status, hist, versions, version)
	root.AddCommand(
		validate,
		graph,
		newRunCommand(g, history.OperationPlan),
		newRunCommand(g, history.OperationApply),
		diff,
		status,
		hist,
		newApproveCommand(g),
		newUnlockCommand(g),
		versions,
		newPolicyCommand(g),
		newPushCommand(g),
		newMirrorCommand(g),
		newContractsCommand(g),
		newReconcileCommand(g),
		newControllerCommand(g),
		newServeCommand(g),
		newRunnerCommand(g),
		version,
	)
	usageErrors(root)
	return root
}

// runFlags are the flags of the commands that run tofu.
type runFlags struct {
	registryFlags
	tofu             string
	maxRunners       int
	timeout          time.Duration
	driftInterval    time.Duration
	shutdownGrace    time.Duration
	detailedExitCode bool
	policyDirs       []string
	noDefaultPolicy  bool
	mirror, mirrorCA string
	keepRuns         int
	keepDays         int
}

func (f *runFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.tofu, "tofu", "", "tofu binary (default: $"+tofu.EnvBinary+", then tofu on PATH, then bin/tofu)")
	cmd.Flags().IntVar(&f.maxRunners, "max-runners", 0, fmt.Sprintf("most tofu processes at once; for reconcile, across every environment (default: the init key maxRunners, else 2 per CPU, at most %d)", reconcile.DefaultMaxRunners))
	cmd.Flags().DurationVar(&f.timeout, "timeout", reconcile.DefaultTimeout, "longest a single stack's run may take")
	cmd.Flags().DurationVar(&f.shutdownGrace, "shutdown-grace", reconcile.DefaultShutdownGrace,
		"on SIGTERM or SIGINT, how long an apply in flight may go on before tofu is interrupted (keep Kubernetes' terminationGracePeriodSeconds above it)")
	cmd.Flags().DurationVar(&f.driftInterval, "drift-interval", reconcile.DefaultDriftInterval,
		"how long a stack whose inputs have not changed goes without a plan: when given, for every stack (0 plans every stack every time); when not, each stack's own spec.interval, and this default for a stack without one")
	cmd.Flags().StringArrayVar(&f.policyDirs, "policy", nil, "policy directory loaded on top of the default bundle (repeatable)")
	cmd.Flags().BoolVar(&f.noDefaultPolicy, "no-default-policy", false, "replace the default policy bundle with the --policy directories (without any: no policy, every plan approvePlan allows is applied, as the Tofu Controller does)")
	f.registryFlags.register(cmd)
	cmd.Flags().StringVar(&f.mirror, "provider-mirror", "", "https URL of a provider network mirror every init installs providers from (default: the init key providerMirror)")
	cmd.Flags().StringVar(&f.mirrorCA, "provider-mirror-ca", "", "PEM file of the certificate authorities tofu trusts for the provider mirror")
	cmd.Flags().IntVar(&f.keepRuns, "keep-runs", environment.DefaultKeepRuns,
		"the history keeps a run while it is one of its stack's last N runs, or younger than --keep-days; a stack's first run and last good one are always kept, and a run's log goes with it (default: the init key keepRuns, else this)")
	cmd.Flags().IntVar(&f.keepDays, "keep-days", environment.DefaultKeepDays,
		"the history keeps a run while it is younger than D days, or one of its stack's last --keep-runs; 0 keeps by count alone (default: the init key keepDays, else this)")
}

// check refuses flag values out of range: a usage error naming the flag
// and the values it takes.
func (f *runFlags) check(cmd *cobra.Command) error {
	if cmd.Flags().Changed("max-runners") && f.maxRunners < 1 {
		return usageError("--max-runners is %d: it must be at least 1 (leave it out to use the init key maxRunners, else 2 per CPU, at most %d)", f.maxRunners, reconcile.DefaultMaxRunners)
	}
	if f.timeout <= 0 {
		return usageError("--timeout is %s: it must be more than 0, such as 10m", f.timeout)
	}
	if f.shutdownGrace <= 0 {
		return usageError("--shutdown-grace is %s: it must be more than 0, such as 5m", f.shutdownGrace)
	}
	if f.keepRuns < 1 {
		return usageError("--keep-runs is %d: it must be at least 1 (the history keeps each stack's last N runs)", f.keepRuns)
	}
	if f.keepDays < 0 {
		return usageError("--keep-days is %d: it must be 0 (keep by count alone) or more", f.keepDays)
	}
	if f.driftInterval < 0 {
		return usageError("--drift-interval is %s: it must be 0 (plan every stack every time) or more", f.driftInterval)
	}
	return nil
}

// options are the orchestrator's options that the run flags set, for the
// commands that reconcile (plan, apply, reconcile, controller): tofu, the
// state directory, the runner limit, the timeouts, the drift interval
// (each stack's own spec.interval unless --drift-interval is given), the
// policy, the registries, the provider mirror and how long the history
// keeps runs (the init keys unless --keep-runs or --keep-days is given).
func (f *runFlags) options(cmd *cobra.Command, g *globals, bin string, log *slog.Logger) reconcile.Options {
	var keepRuns int
	var keepDays *int
	if cmd.Flags().Changed("keep-runs") {
		keepRuns = f.keepRuns
	}
	if cmd.Flags().Changed("keep-days") {
		keepDays = &f.keepDays
	}
	return reconcile.Options{
		Tofu:               bin,
		StateDir:           g.stateDir,
		MaxRunners:         f.maxRunners,
		Timeout:            f.timeout,
		ShutdownGrace:      f.shutdownGrace,
		DriftInterval:      f.driftInterval,
		StackIntervals:     !cmd.Flags().Changed("drift-interval"),
		Logger:             log,
		PolicyDirs:         f.policyDirs,
		NoDefaultPolicy:    f.noDefaultPolicy,
		InsecureRegistries: f.insecure,
		DockerConfig:       f.dockerConfig,
		ProviderMirror:     f.mirror,
		ProviderMirrorCA:   f.mirrorCA,
		KubernetesLocks:    kubernetesLocks(),
		KeepRuns:           keepRuns,
		KeepDays:           keepDays,
	}
}

// usageError is a bad command line: exit code 2.
func usageError(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

func (g *globals) logger() *slog.Logger {
	level := slog.LevelInfo
	if g.verbose {
		level = slog.LevelDebug
	}
	w := g.stdout
	if g.output != "text" {
		// JSON and markdown go to stdout alone; the run log goes to stderr.
		w = g.stderr
	}
	return runlog.New(w, level)
}

// settings are the environment's settings with --state-dir applied.
func (g *globals) settings(env *environment.Environment) (environment.Settings, error) {
	return reconcile.Options{StateDir: g.stateDir}.Settings(env)
}

// noteSnapshot says on stderr when the history read is a running
// reconcile's snapshot.
func (g *globals) noteSnapshot(st *envstores.Stores) {
	if st.HistoryFromSnapshot() {
		fmt.Fprintln(g.stderr, "note: a reconcile is running; the history is shown as it was when it began")
	}
}

func (g *globals) checkOutput(allowed ...string) error {
	for _, a := range allowed {
		if g.output == a {
			return nil
		}
	}
	return &exitError{code: 2, msg: fmt.Sprintf("unknown output format %q: use one of %v", g.output, allowed)}
}
