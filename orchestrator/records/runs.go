package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/strata-iac/strata/orchestrator/history"
)

// readers bounds the objects read at once.
const readers = 8

// maxRunBytes bounds a run's JSON well under a cluster's 1 MiB per object;
// a longer Error or Note is cut to fit.
const maxRunBytes = 512 << 10

// stored is a run with its object's key and version.
type stored struct {
	run     history.Run
	key     Key
	version string
}

// runKey is the key of run n of a stack.
func runKey(client, env, stack string, n int) Key {
	return Key{Kind: Run, Client: client, Env: env, Stack: stack, Number: n}
}

// runEntries lists the objects of the runs prefix names, newest first.
func (s *Records) runEntries(ctx context.Context, prefix Key) ([]Entry, error) {
	prefix.Kind = Run
	entries, err := s.objects.List(ctx, prefix)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b Entry) int { return b.Key.Number - a.Key.Number })
	return entries, nil
}

// readRuns reads the runs of entries, in order, a few at once: those the
// listing gave are decoded, the others read. It leaves out the runs keep
// refuses, and those deleted meanwhile.
func (s *Records) readRuns(ctx context.Context, entries []Entry, keep func(history.Run) bool) ([]stored, error) {
	got := make([]*stored, len(entries))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(readers)
	for i, e := range entries {
		g.Go(func() error {
			if e.Version == "" {
				var err error
				e.Data, e.Version, err = s.objects.Read(gctx, e.Key)
				if errors.Is(err, ErrNotFound) {
					return nil
				}
				if err != nil {
					return err
				}
			}
			var r history.Run
			if err := json.Unmarshal(e.Data, &r); err != nil {
				return fmt.Errorf("decode run %s: %w", s.objects.Name(e.Key), err)
			}
			got[i] = &stored{run: r, key: e.Key, version: e.Version}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make([]stored, 0, len(entries))
	for _, st := range got {
		if st != nil && keep(st.run) {
			out = append(out, *st)
		}
	}
	return out, nil
}

// ofStack keeps the runs of one stack: the key selects it, the names the
// run keeps exactly confirm it.
func ofStack(client, env, stack string) func(history.Run) bool {
	return func(r history.Run) bool { return r.Client == client && r.Env == env && r.Stack == stack }
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

// stackKey names a run's stack in errors: client/env/stack.
func stackKey(r history.Run) string { return r.Client + "/" + r.Env + "/" + r.Stack }
