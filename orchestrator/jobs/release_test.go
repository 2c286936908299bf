package jobs

import (
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestKeptFor: a Job kept after its run stays the TTL from when its
// outcome is recorded, however long after it finished that is.
func TestKeptFor(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ended := func(typ batchv1.JobConditionType, ago time.Duration) *batchv1.Job {
		return &batchv1.Job{Status: batchv1.JobStatus{Conditions: []batchv1.JobCondition{
			{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now.Add(-2 * ago))},
			{Type: typ, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now.Add(-ago))},
		}}}
	}
	tests := []struct {
		name string
		job  *batchv1.Job
		want int32
	}{
		{"finished just now", ended(batchv1.JobComplete, 0), 600},
		{"completed an hour ago", ended(batchv1.JobComplete, time.Hour), 3600 + 600},
		{"failed 90.2s ago", ended(batchv1.JobFailed, 90200*time.Millisecond), 691},
		{"not finished", &batchv1.Job{}, 600},
		{"finished in the future (clock skew)", ended(batchv1.JobComplete, -time.Minute), 600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keptFor(tt.job, 10*time.Minute, now); got != tt.want {
				t.Errorf("keptFor(%s) = %d, want %d", tt.name, got, tt.want)
			}
		})
	}
}
