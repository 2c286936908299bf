package s3records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// Hold keeps a plan: its plan file, JSON and summary as objects of their
// own (encrypted at rest: plans can hold private values), then its
// record, which makes it held. A plan held again keeps its approval: the
// record is written over the ETag it read.
func (s *Store) Hold(ctx context.Context, h approval.Held, planFile string, planJSON []byte, summary string) (approval.Held, error) {
	if err := approval.ValidID(h.PlanID); err != nil {
		return h, fmt.Errorf("hold plan of stack %s: %w", h.Stack, err)
	}
	fail := func(err error) (approval.Held, error) {
		return h, fmt.Errorf("hold plan %s of stack %s: %w", h.PlanID, h.Stack, err)
	}
	if err := history.CheckKeys(ctx, h.Client, h.Env, h.Stack); err != nil {
		return fail(err)
	}
	if s.dir == "" {
		return fail(errNoDir)
	}
	plan, err := os.ReadFile(planFile)
	if err != nil {
		return fail(err)
	}
	data := map[string][]byte{approval.PlanFile: plan, approval.JSONFile: planJSON, approval.SummaryFile: []byte(summary)}
	h.Dir = ""
	rec := planRecord{Held: h, Files: map[string]string{}}
	prefix := s.planDir(h.Client, h.Env, h.Stack, h.PlanID)
	for _, name := range planFiles {
		rec.Files[name] = digest(data[name])
		if err := s.put(ctx, prefix+name, data[name], anyway); err != nil {
			return fail(err)
		}
	}
	if err := s.putRecord(ctx, rec); err != nil {
		return fail(err)
	}
	if h.Dir, err = s.files(ctx, rec); err != nil {
		return fail(err)
	}
	return h, nil
}

// putRecord writes a held plan's record, keeping the approval of the one
// it replaces.
func (s *Store) putRecord(ctx context.Context, rec planRecord) error {
	h := rec.Held
	key := s.planDir(h.Client, h.Env, h.Stack, h.PlanID) + recordName
	for range maxWriteTries {
		cur, o, ok, err := s.readRecord(ctx, h.Client, h.Env, h.Stack, h.PlanID)
		if err != nil {
			return err
		}
		cond := absent
		if ok {
			rec.Approval, cond = cur.Approval, o.etag
		}
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		err = s.put(ctx, key, b, cond)
		if errors.Is(err, errChanged) {
			continue
		}
		return err
	}
	return fmt.Errorf("other writers changed its record %d times in a row; try again", maxWriteTries)
}
