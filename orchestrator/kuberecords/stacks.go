package kuberecords

import (
	"context"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
)

// Stacks returns every stack of the environment that has runs, sorted.
func (s *Store) Stacks(ctx context.Context, client, env string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	sel := k8slabels.SelectorFromSet(map[string]string{labelRecord: recordRun, labelEnvHash: envHash(client, env)})
	// Only the names are needed: the annotations keep them.
	list, err := s.client.CoreV1().ConfigMaps(s.namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	seen := map[string]bool{}
	var stacks []string
	for _, cm := range list.Items {
		a := cm.Annotations
		if a[annClient] != client || a[annEnv] != env || seen[a[annStack]] {
			continue
		}
		seen[a[annStack]] = true
		stacks = append(stacks, a[annStack])
	}
	slices.Sort(stacks)
	return stacks, nil
}
