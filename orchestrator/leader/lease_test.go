package leader

import (
	"testing"

	"k8s.io/client-go/tools/leaderelection"

	"github.com/strata-iac/strata/orchestrator/leader/lease"
)

// TestLeaseJitterFactor: package lease states client-go's jitter factor
// without linking client-go; it must be client-go's.
func TestLeaseJitterFactor(t *testing.T) {
	if lease.JitterFactor != leaderelection.JitterFactor {
		t.Errorf("lease.JitterFactor = %v, want leaderelection.JitterFactor %v", lease.JitterFactor, leaderelection.JitterFactor)
	}
}
