package s3records

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/strata-iac/strata/orchestrator/history"
)

// readers bounds the objects read at once.
const readers = 8

// stored is a run with its object's name and ETag.
type stored struct {
	run  history.Run
	key  string
	etag string
}

// runKeys lists the objects of a stack's runs, newest first.
func (s *Store) runKeys(ctx context.Context, client, env, stack string) ([]string, error) {
	keys, _, err := s.list(ctx, s.stackRuns(client, env, stack), false)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, k := range keys {
		if _, ok := runNumber(k); ok {
			out = append(out, k)
		}
	}
	// Ten digits sort as numbers do.
	slices.Reverse(out)
	return out, nil
}

// runs reads a stack's runs, newest first, from the bucket (never a
// cache), so a writer sees what every other writer stored.
func (s *Store) runs(ctx context.Context, client, env, stack string) ([]stored, error) {
	keys, err := s.runKeys(ctx, client, env, stack)
	if err != nil {
		return nil, err
	}
	return s.readRuns(ctx, keys, func(r history.Run) bool {
		return r.Client == client && r.Env == env && r.Stack == stack
	})
}

// readRuns reads the runs of keys, in order, leaving out those keep
// refuses and those deleted meanwhile.
func (s *Store) readRuns(ctx context.Context, keys []string, keep func(history.Run) bool) ([]stored, error) {
	got := make([]*stored, len(keys))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(readers)
	for i, k := range keys {
		g.Go(func() error {
			o, ok, err := s.get(gctx, k)
			if err != nil || !ok {
				return err
			}
			var r history.Run
			if err := json.Unmarshal(o.data, &r); err != nil {
				return fmt.Errorf("decode run s3://%s/%s: %w", s.bucket, k, err)
			}
			got[i] = &stored{run: r, key: k, etag: o.etag}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make([]stored, 0, len(keys))
	for _, st := range got {
		if st != nil && keep(st.run) {
			out = append(out, *st)
		}
	}
	return out, nil
}

// maxRunBytes bounds a run's JSON; a longer Error or Note is cut to fit.
const maxRunBytes = 512 << 10

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
