//go:build k8s

package kuberecords_test

import (
	"testing"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/orchestrator/internal/recordstest"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
)

// open returns a Store of the namespace, as a process of its own: another
// replica, or the one that comes after a process was killed.
func open(t *testing.T, kubeconfig, namespace string, keep int) *kuberecords.Store {
	t.Helper()
	s, err := kuberecords.New(kuberecords.Config{Kubeconfig: kubeconfig, Namespace: namespace, Keep: keep, Dir: t.TempDir(), Writer: t.Name()})
	if err != nil {
		t.Fatalf("New(%s) = %v", namespace, err)
	}
	return s
}

func records(s *kuberecords.Store) recordstest.Records {
	return recordstest.Records{History: s, Approvals: s}
}

// clusterRecords are the records as objects in a namespace of the real
// cluster, new for each case.
func clusterRecords(c *k8stest.Cluster) recordstest.Impl {
	other := func(t *testing.T, prev recordstest.Records) recordstest.Records {
		return records(open(t, c.Kubeconfig, prev.History.(*kuberecords.Store).Namespace(), 0))
	}
	return recordstest.Impl{
		Name: "kubernetes",
		Open: func(t *testing.T) recordstest.Records {
			return records(open(t, c.Kubeconfig, c.Namespace(t, "records"), 0))
		},
		Next:    other,
		Replica: other,
	}
}

func TestRecordsContractInCluster(t *testing.T) {
	recordstest.Run(t, []recordstest.Impl{clusterRecords(k8stest.Get(t))})
}
