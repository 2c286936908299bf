package kuberecords

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/history"
)

// retain deletes the runs beyond the newest Keep, given the runs before
// the one just begun (newest first), as history.Expired picks them.
func (s *Store) retain(ctx context.Context, before []stored) error {
	for _, i := range history.Expired(before, func(st stored) history.Run { return st.run }, s.keep) {
		name := before[i].cm.Name
		err := s.client.CoreV1().ConfigMaps(s.namespace).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete run #%d beyond the %d kept: %w", before[i].run.Number, s.keep, err)
		}
	}
	return nil
}
