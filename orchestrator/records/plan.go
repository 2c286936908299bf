package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/strata-iac/strata/internal/atomicfile"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// planRecord is a held plan's record: the plan is held while it exists.
// It keeps the Held record, the approval once a person gave it, and where
// the plan's files are: Files, the digest of each file kept as an object
// of its own, or Payload, the parts of one gzipped tar of them.
type planRecord struct {
	Held     approval.Held      `json:"held"`
	Approval *approval.Approval `json:"approval,omitempty"`
	Files    map[string]string  `json:"files,omitempty"`
	Payload  *payloadRef        `json:"payload,omitempty"`
}

// payloadRef says where a held plan's files are when they travel as
// parts: how many, and the digest of the whole.
type payloadRef struct {
	Parts  int    `json:"parts"`
	SHA256 string `json:"sha256"`
}

// planFiles are the names of a held plan's files, as objects and on disk.
var planFiles = []string{approval.PlanFile, approval.JSONFile, approval.SummaryFile}

// file is one file of a held plan.
type file struct {
	name string
	data []byte
}

// planKey is the key of a held plan's record; its id is checked
// (approval.ValidID) before.
func planKey(client, env, stack, id string) Key {
	return Key{Kind: Plan, Client: client, Env: env, Stack: stack, Plan: id}
}

// fileKey is the key of the object name of a held plan keeps.
func fileKey(plan Key, name string) Key {
	plan.Kind, plan.File = PlanFile, name
	return plan
}

// partName is the name of part i of a held plan's payload.
func partName(i int) string { return "part-" + strconv.Itoa(i) }

// decodePlan reads a held plan's record.
func (s *Records) decodePlan(k Key, data []byte) (planRecord, error) {
	var rec planRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("decode %s: %w", s.objects.Name(k), err)
	}
	return rec, nil
}

// readPlan reads a held plan's record; false when the plan is not held.
func (s *Records) readPlan(ctx context.Context, k Key) (planRecord, bool, error) {
	data, _, err := s.objects.Read(ctx, k)
	if errors.Is(err, ErrNotFound) {
		return planRecord{}, false, nil
	}
	if err != nil {
		return planRecord{}, false, err
	}
	rec, err := s.decodePlan(k, data)
	return rec, err == nil, err
}

// putFiles keeps a held plan's files, as objects of their own or as the
// parts of a payload, whichever the store takes, and says where in rec.
// It returns the names of the objects it wrote.
func (s *Records) putFiles(ctx context.Context, k Key, files []file, rec *planRecord) ([]string, error) {
	var objects []file
	if size := s.objects.PartBytes(); size > 0 {
		parts, sum, err := pack(files, size)
		if err != nil {
			return nil, err
		}
		rec.Payload = &payloadRef{Parts: len(parts), SHA256: sum}
		for i, p := range parts {
			objects = append(objects, file{partName(i), p})
		}
	} else {
		rec.Files = map[string]string{}
		for _, f := range files {
			rec.Files[f.name] = digest(f.data)
		}
		objects = files
	}
	names := make([]string, 0, len(objects))
	for _, o := range objects {
		if err := s.objects.Write(ctx, fileKey(k, o.name), o.data, Any); err != nil {
			return nil, err
		}
		names = append(names, o.name)
	}
	return names, nil
}

// readFiles reads a held plan's files and checks them against its record.
func (s *Records) readFiles(ctx context.Context, k Key, rec planRecord) ([]file, error) {
	if rec.Payload != nil {
		parts := make([][]byte, rec.Payload.Parts)
		for i := range parts {
			data, _, err := s.objects.Read(ctx, fileKey(k, partName(i)))
			if err != nil {
				return nil, fmt.Errorf("read part %d of %s: %w", i, s.objects.Name(k), err)
			}
			parts[i] = data
		}
		files, err := unpack(parts, rec.Payload.SHA256)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", s.objects.Name(k), err)
		}
		return files, nil
	}
	files := make([]file, 0, len(planFiles))
	for _, name := range planFiles {
		data, _, err := s.objects.Read(ctx, fileKey(k, name))
		if errors.Is(err, ErrNotFound) {
			return nil, fmt.Errorf("its %s is gone: it was released while being read", name)
		}
		if err != nil {
			return nil, err
		}
		if got, want := digest(data), rec.Files[name]; got != want {
			return nil, fmt.Errorf("its %s does not match its record (sha256 %s, want %s): it was held again while being read; read it again", name, got, want)
		}
		files = append(files, file{name, data})
	}
	return files, nil
}

// deleteFiles deletes the objects of a held plan's files but those named
// in keep: those an earlier hold of the plan left, or all of them.
func (s *Records) deleteFiles(ctx context.Context, k Key, keep []string) error {
	entries, err := s.objects.List(ctx, fileKey(k, ""))
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Key.Plan != k.Plan || slices.Contains(keep, e.Key.File) {
			continue
		}
		if err := s.objects.Delete(ctx, e.Key); err != nil {
			return err
		}
	}
	return nil
}

// errNoDir is a held plan read or held by records without a Dir.
func (s *Records) errNoDir() error {
	return fmt.Errorf("the records in %s were given no local directory for held plans", s.objects.Location())
}

// writeOut writes a held plan's files to <Dir>/<client>/<env>/<stack>/<id>/
// and returns that directory.
func (s *Records) writeOut(h approval.Held, files []file) (string, error) {
	if s.dir == "" {
		return "", s.errNoDir()
	}
	dir, err := statedir.Join(s.dir, h.Client, h.Env, h.Stack, h.PlanID)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, f := range files {
		if filepath.Base(f.name) != f.name {
			return "", fmt.Errorf("held plan %s has a file named %q", h.PlanID, f.name)
		}
		if err := atomicfile.Write(filepath.Join(dir, f.name), f.data, 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}
