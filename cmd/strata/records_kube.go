//go:build kube

package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
	"github.com/strata-iac/strata/orchestrator/leader"
)

// clusterRecords are the records a cluster keeps in the flags' namespace,
// reached through their kubeconfig; held plans are written out under dir.
func (f *recordsFlags) clusterRecords(dir string) (envstores.Records, error) {
	host, _ := os.Hostname()
	s, err := kuberecords.New(kuberecords.Config{Kubeconfig: f.kubeconfig, Namespace: f.namespace, Dir: dir, Writer: host})
	if err != nil {
		return nil, fmt.Errorf("%w: give --kubeconfig, or leave out --kubeconfig and --namespace to read the state directory", err)
	}
	return envstores.SharedRecords(s), nil
}

// namespaceRecords are the records strata controller keeps of each
// namespace it watches, in that namespace, through kubeconfig (the
// in-cluster configuration when ""); held plans are written out under dir
// for tofu to apply.
func namespaceRecords(kubeconfig, dir string) envstores.Records {
	var (
		mu     sync.Mutex
		stores = map[string]*kuberecords.Store{}
	)
	return envstores.LeaderRecordsBy(func(env *environment.Environment) (envstores.SharedStore, error) {
		// A namespace's environment is named by its namespace
		// (flux.LoadNamespace).
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
