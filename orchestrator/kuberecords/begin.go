package kuberecords

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/history"
)

// maxBeginTries bounds how often Begin takes the next number after
// another writer took it first.
const maxBeginTries = 50

// Begin stores r as the stack's next run, with Result "running", and
// returns it with its Number, counting each stack's runs from 1.
//
// The number is taken by creating the run's object, whose name holds it:
// of two writers that read the same last run, one creates the object and
// the other finds it exists and takes the number after it. Runs of the
// stack still "running" were left by a process that stopped (a stack
// runs once at a time), and are marked interrupted. Runs beyond Keep are
// deleted.
func (s *Store) Begin(ctx context.Context, r history.Run) (history.Run, error) {
	if err := history.CheckKeys(ctx, r.Client, r.Env, r.Stack); err != nil {
		return history.Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
	}
	r.Result = history.ResultRunning
	if r.StartedAt.IsZero() {
		r.StartedAt = time.Now().UTC()
	}
	for range maxBeginTries {
		runs, err := s.runs(ctx, r.Client, r.Env, r.Stack)
		if err != nil {
			return history.Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
		}
		r.Number = 1
		if len(runs) > 0 {
			r.Number = runs[0].run.Number + 1
		}
		cm, err := s.runConfigMap(r)
		if err != nil {
			return history.Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
		}
		_, err = s.client.CoreV1().ConfigMaps(s.namespace).Create(ctx, cm, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			continue
		}
		if err != nil {
			return history.Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
		}
		if err := s.interrupt(ctx, runs); err != nil {
			return r, fmt.Errorf("begin run %s #%d: %w", stackKey(r), r.Number, err)
		}
		if err := s.retain(ctx, runs); err != nil {
			return r, fmt.Errorf("begin run %s #%d: %w", stackKey(r), r.Number, err)
		}
		return r, nil
	}
	return history.Run{}, fmt.Errorf("begin run %s: other writers took %d numbers in a row; try again", stackKey(r), maxBeginTries)
}

// stackKey names a run's stack in errors: client/env/stack.
func stackKey(r history.Run) string { return r.Client + "/" + r.Env + "/" + r.Stack }
