package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/s3records"
)

// recordsFlags say where the history and held plans a command reads and
// writes are: the state directory, the objects of a cluster's namespace,
// as `strata controller` and its runner pods keep them, or an S3 bucket
// (--records s3://bucket/prefix).
type recordsFlags struct {
	kubeconfig, namespace string
	location              string
}

// recordsUsage is the help of --records.
const recordsUsage = "the history, held plans and approvals are those kept in this S3 bucket, under this prefix: s3://bucket/prefix " +
	"(region: AWS_REGION; endpoint: $" + stores.EnvEndpoint + ", addressed in the path; credentials: the standard AWS chain) (default: the state directory's)"

func (f *recordsFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.kubeconfig, "kubeconfig", "", "the history and held plans are those a cluster keeps, reached through this kubeconfig file (default: the state directory's)")
	cmd.Flags().StringVar(&f.namespace, "namespace", "", "namespace of the cluster's records (default: the kubeconfig context's); without --kubeconfig, the cluster strata runs in")
	markKubeOnly(cmd, "kubeconfig", "namespace")
	checkBeforeKube(cmd, f.twoPlaces)
	f.registerLocation(cmd)
}

// registerLocation registers --records alone, for the commands whose
// --kubeconfig is not the records' (reconcile, controller) or that have
// none (plan, apply).
func (f *recordsFlags) registerLocation(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.location, "records", "", recordsUsage)
}

// records are the records the flags name: nil (the state directory's)
// when none is set. Held plans are written out under dir, for the web
// view; "" writes none (a command that lists or approves).
func (f *recordsFlags) records(cmd *cobra.Command) (envstores.Records, error) {
	return f.recordsIn(cmd, "")
}

func (f *recordsFlags) recordsIn(cmd *cobra.Command, dir string) (envstores.Records, error) {
	if f.location != "" {
		if err := f.twoPlaces(cmd); err != nil {
			return nil, err
		}
		s, err := f.bucket(cmd.Context(), dir)
		if err != nil {
			return nil, err
		}
		return envstores.SharedRecords(s), nil
	}
	if !f.inCluster(cmd) {
		return nil, nil
	}
	if f.namespace != "" {
		if errs := validation.IsDNS1123Label(f.namespace); len(errs) > 0 {
			return nil, usageError("--namespace %q is not a namespace name: %s", f.namespace, errs[0])
		}
	}
	return f.clusterRecords(dir)
}

// leaderRecords are the records of a process that runs reconciles (plan,
// apply, reconcile, controller): nil (the state directory's) without
// --records; with it, the bucket's, whose runs left "running" are marked
// interrupted as a reconcile of their environment begins. Held plans are
// written out under dir for tofu to apply.
func (f *recordsFlags) leaderRecords(ctx context.Context, dir string) (envstores.Records, error) {
	if f.location == "" {
		return nil, nil
	}
	s, err := f.bucket(ctx, dir)
	if err != nil {
		return nil, err
	}
	return envstores.LeaderRecords(s), nil
}

// check refuses a --records that is no s3://bucket/prefix, before
// anything runs.
func (f *recordsFlags) check() error {
	if f.location == "" {
		return nil
	}
	if _, err := s3records.ParseURL(f.location); err != nil {
		return usageError("--records: %v", err)
	}
	return nil
}

// bucket opens the S3 records of --records.
func (f *recordsFlags) bucket(ctx context.Context, dir string) (*s3records.Store, error) {
	cfg, err := s3records.ParseURL(f.location)
	if err != nil {
		return nil, usageError("--records: %v", err)
	}
	cfg.Endpoint = os.Getenv(stores.EnvEndpoint)
	cfg.PathStyle = cfg.Endpoint != ""
	cfg.Dir = dir
	s, err := s3records.New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: set AWS_REGION, or leave out --records to keep the records in the state directory", err)
	}
	return s, nil
}

// recordsDir is a new temporary directory where the held plans of the
// records --records names are written out, and removes it; "" when the
// flag is not given.
func recordsDir(f *recordsFlags, pattern string) (dir string, done func(), err error) {
	if f.location == "" {
		return "", func() {}, nil
	}
	dir, err = os.MkdirTemp("", pattern)
	if err != nil {
		return "", nil, fmt.Errorf("records %s: %w", f.location, err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// recordsEnv is what a runner pod needs in its environment to reach the
// bucket of --records as this process does: the region and endpoint set
// here.
func recordsEnv() map[string]string {
	env := map[string]string{}
	for _, k := range []string{"AWS_REGION", "AWS_DEFAULT_REGION", stores.EnvEndpoint} {
		if v := os.Getenv(k); v != "" {
			env[k] = v
		}
	}
	return env
}

// twoPlaces is the usage error of --records with --kubeconfig or
// --namespace, which name two places for the records.
func (f *recordsFlags) twoPlaces(cmd *cobra.Command) error {
	if f.location != "" && f.inCluster(cmd) {
		return usageError("--records %s and --kubeconfig or --namespace name two places for the records: give one", f.location)
	}
	return nil
}

// inCluster reports whether the flags name a cluster's records.
func (f *recordsFlags) inCluster(cmd *cobra.Command) bool {
	return cmd.Flags().Changed("kubeconfig") || cmd.Flags().Changed("namespace")
}
