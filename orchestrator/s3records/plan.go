package s3records

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-iac/strata/internal/atomicfile"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// planRecord is a held plan's record.json: the plan is held while it
// exists. It keeps the Held record, the approval once a person gave it,
// and the digest of each of the plan's files, the objects beside it.
type planRecord struct {
	Held     approval.Held      `json:"held"`
	Approval *approval.Approval `json:"approval,omitempty"`
	Files    map[string]string  `json:"files"`
}

// planFiles are the names of a held plan's files, as objects and on disk.
var planFiles = []string{approval.PlanFile, approval.JSONFile, approval.SummaryFile}

// readRecord reads a held plan's record; false when the plan is not held.
func (s *Store) readRecord(ctx context.Context, client, env, stack, id string) (planRecord, object, bool, error) {
	var rec planRecord
	o, ok, err := s.get(ctx, s.planDir(client, env, stack, id)+recordName)
	if err != nil || !ok {
		return rec, o, ok, err
	}
	if err := json.Unmarshal(o.data, &rec); err != nil {
		return rec, o, false, fmt.Errorf("decode the record of plan %s: %w", id, err)
	}
	return rec, o, true, nil
}

// errNoDir is a held plan read or held by a Store without a Dir.
var errNoDir = errors.New("the s3 records were given no local directory for held plans")

// files reads a held plan's files, checks each against its record's
// digest and writes them out under Dir: <Dir>/<client>/<env>/<stack>/<id>/.
func (s *Store) files(ctx context.Context, rec planRecord) (string, error) {
	h := rec.Held
	if s.dir == "" {
		return "", errNoDir
	}
	dir, err := statedir.Join(s.dir, h.Client, h.Env, h.Stack, h.PlanID)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	prefix := s.planDir(h.Client, h.Env, h.Stack, h.PlanID)
	for _, name := range planFiles {
		o, ok, err := s.get(ctx, prefix+name)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("its %s is gone: it was released while being read", name)
		}
		if got, want := digest(o.data), rec.Files[name]; got != want {
			return "", fmt.Errorf("its %s does not match its record (sha256 %s, want %s): it was held again while being read; read it again", name, got, want)
		}
		if err := atomicfile.Write(filepath.Join(dir, name), o.data, 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// digest is the hex sha256 of b.
func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
