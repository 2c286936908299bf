package kuberecords

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"

	"github.com/strata-iac/strata/orchestrator/history"
)

// runKey is the data key of a run's JSON in its ConfigMap.
const runKey = "run.json"

// maxRunBytes bounds a run's JSON well under the API server's 1 MiB per
// object; a longer Error or Note is cut to fit.
const maxRunBytes = 512 << 10

// stored is a run with the ConfigMap it is kept in.
type stored struct {
	run history.Run
	cm  corev1.ConfigMap
}

// runs lists a stack's runs, newest first, read from the API server (never
// a cache), so a writer sees what every other writer stored.
func (s *Store) runs(ctx context.Context, client, env, stack string) ([]stored, error) {
	sel := k8slabels.SelectorFromSet(map[string]string{
		labelRecord: recordRun, labelStackHash: stackHash(client, env, stack),
	})
	list, err := s.client.CoreV1().ConfigMaps(s.namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, err
	}
	out := make([]stored, 0, len(list.Items))
	for _, cm := range list.Items {
		r, err := decodeRun(cm)
		if err != nil {
			return nil, err
		}
		// The hash selects the stack; its names, kept exactly, confirm it.
		if r.Client != client || r.Env != env || r.Stack != stack {
			continue
		}
		out = append(out, stored{run: r, cm: cm})
	}
	slices.SortFunc(out, func(a, b stored) int { return b.run.Number - a.run.Number })
	return out, nil
}

// decodeRun reads the run a ConfigMap keeps.
func decodeRun(cm corev1.ConfigMap) (history.Run, error) {
	var r history.Run
	if err := json.Unmarshal([]byte(cm.Data[runKey]), &r); err != nil {
		return r, fmt.Errorf("decode run %s: %w", cm.Name, err)
	}
	return r, nil
}

// runConfigMap is the ConfigMap that keeps r.
func (s *Store) runConfigMap(r history.Run) (*corev1.ConfigMap, error) {
	b, err := encodeRun(r)
	if err != nil {
		return nil, err
	}
	l := labels(recordRun, r.Client, r.Env, r.Stack)
	l[labelRun] = strconv.Itoa(r.Number)
	ann := annotations(r.Client, r.Env, r.Stack)
	if s.writer != "" {
		ann[annWriter] = s.writer
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: runName(r.Client, r.Env, r.Stack, r.Number), Namespace: s.namespace,
			Labels: l, Annotations: ann,
		},
		Data: map[string]string{runKey: string(b)},
	}, nil
}

// encodeRun is r's JSON, its Error and Note cut so that it fits.
func encodeRun(r history.Run) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil || len(b) <= maxRunBytes {
		return b, err
	}
	const cut = "… (cut: the record keeps at most 64 KiB of it)"
	for _, f := range []*string{&r.Error, &r.Note} {
		if len(*f) > 64<<10 {
			*f = (*f)[:64<<10] + cut
		}
	}
	return json.Marshal(r)
}
