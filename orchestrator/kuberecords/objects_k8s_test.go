//go:build k8s

package kuberecords

import (
	"testing"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/orchestrator/internal/recordstest"
	"github.com/strata-iac/strata/orchestrator/records"
)

func TestObjectsInCluster(t *testing.T) {
	c := k8stest.Get(t)
	recordstest.RunObjects(t, func(t *testing.T) records.Objects {
		s, err := New(Config{Kubeconfig: c.Kubeconfig, Namespace: c.Namespace(t, "objects"), Writer: t.Name()})
		if err != nil {
			t.Fatalf("New() = %v", err)
		}
		return s.objects
	})
}
