package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
	"github.com/strata-iac/strata/orchestrator/leader"
)

// recordsFlags say where the history and held plans a command reads and
// writes are:
// the state directory, or the objects of a cluster's namespace, as
// `strata controller` and its runner pods keep them.
type recordsFlags struct {
	kubeconfig, namespace string
}

func (f *recordsFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.kubeconfig, "kubeconfig", "", "the history and held plans are those a cluster keeps, reached through this kubeconfig file (default: the state directory's)")
	cmd.Flags().StringVar(&f.namespace, "namespace", "", "namespace of the cluster's records (default: the kubeconfig context's); without --kubeconfig, the cluster strata runs in")
}

// records are the records the flags name: nil (the state directory's)
// when neither is set. Held plans are written out under dir, for the web
// view; "" writes none (a command that lists or approves).
func (f *recordsFlags) records(cmd *cobra.Command) (orchestrator.Records, error) {
	return f.recordsIn(cmd, "")
}

func (f *recordsFlags) recordsIn(cmd *cobra.Command, dir string) (orchestrator.Records, error) {
	if !f.inCluster(cmd) {
		return nil, nil
	}
	if f.namespace != "" {
		if errs := validation.IsDNS1123Label(f.namespace); len(errs) > 0 {
			return nil, usageError("--namespace %q is not a namespace name: %s", f.namespace, errs[0])
		}
	}
	host, _ := os.Hostname()
	s, err := kuberecords.New(kuberecords.Config{Kubeconfig: f.kubeconfig, Namespace: f.namespace, Dir: dir, Writer: host})
	if err != nil {
		return nil, fmt.Errorf("%w: give --kubeconfig, or leave out --kubeconfig and --namespace to read the state directory", err)
	}
	return orchestrator.SharedRecords(s), nil
}

// inCluster reports whether the flags name a cluster's records.
func (f *recordsFlags) inCluster(cmd *cobra.Command) bool {
	return cmd.Flags().Changed("kubeconfig") || cmd.Flags().Changed("namespace")
}

// namespaceRecords are the records strata controller keeps of each
// namespace it watches, in that namespace, through kubeconfig (the
// in-cluster configuration when ""); held plans are written out under dir
// for tofu to apply.
func namespaceRecords(kubeconfig, dir string) orchestrator.Records {
	var (
		mu     sync.Mutex
		stores = map[string]*kuberecords.Store{}
	)
	return orchestrator.LeaderRecordsBy(func(env *environment.Environment) (orchestrator.SharedStore, error) {
		// A namespace's environment is named by its namespace
		// (environment.LoadNamespace).
		ns := env.Dir
		mu.Lock()
		defer mu.Unlock()
		if s, ok := stores[ns]; ok {
			return s, nil
		}
		s, err := kuberecords.New(kuberecords.Config{Kubeconfig: kubeconfig, Namespace: ns, Dir: dir, Writer: leader.Identity()})
		if err != nil {
			return nil, err
		}
		stores[ns] = s
		return s, nil
	})
}
