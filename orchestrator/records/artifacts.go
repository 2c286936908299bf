package records

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// MaxArtifactParts is the most parts a kept artifact is split over: with
// Objects.PartBytes, the most an artifact takes in a store that bounds
// its objects.
const MaxArtifactParts = 16

// ErrArtifactTooLarge means an artifact is more than MaxArtifactParts
// parts of a store that bounds its objects: it is not kept.
var ErrArtifactTooLarge = errors.New("artifact too large for the records")

// artifactDigest is the only digest form an artifact is kept by.
var artifactDigest = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// artifactRecord is the object (Number 0) that makes a kept artifact
// whole: written after its parts, so that an artifact whose writer
// stopped half way is not found.
type artifactRecord struct {
	Parts int `json:"parts"`
	Size  int `json:"size"`
}

// artifactKey is the key of part n (0: the record) of a stack's kept
// artifact of digest.
func artifactKey(client, env, stack, digest string, n int) Key {
	return Key{Kind: Artifact, Client: client, Env: env, Stack: stack, File: strings.TrimPrefix(digest, "sha256:"), Number: n}
}

// KeepArtifact keeps the artifact (a source-controller tarball) whose
// sha256 is digest as the code a stack last ran, and deletes the other
// artifacts the stack kept: a stack keeps one. An artifact already kept
// is not written again, and content is asked for (a download) only when
// it is not. Content that is not digest's is refused.
func (r *Records) KeepArtifact(ctx context.Context, client, env, stack, digest string, content func(context.Context) ([]byte, error)) error {
	if !artifactDigest.MatchString(digest) {
		return fmt.Errorf("keep the artifact of stack %s: digest %q is not sha256:<64 hex digits>", stack, digest)
	}
	rec := artifactKey(client, env, stack, digest, 0)
	switch _, _, err := r.objects.Read(ctx, rec); {
	case err == nil:
		return nil
	case !errors.Is(err, ErrNotFound):
		return fmt.Errorf("keep the artifact of stack %s: %w", stack, err)
	}
	data, err := content(ctx)
	if err != nil {
		return fmt.Errorf("keep the artifact of stack %s: %w", stack, err)
	}
	if got := "sha256:" + sha256Hex(data); got != digest {
		return fmt.Errorf("keep the artifact of stack %s: its content is %s, not %s", stack, got, digest)
	}
	parts := [][]byte{data}
	if n := r.objects.PartBytes(); n > 0 {
		if len(data) > n*MaxArtifactParts {
			return fmt.Errorf("keep the artifact of stack %s: %w: it takes %d KiB, and at most %d KiB are kept (%d objects of %d KiB)",
				stack, ErrArtifactTooLarge, len(data)>>10, n*MaxArtifactParts>>10, MaxArtifactParts, n>>10)
		}
		parts = nil
		for b := data; len(b) > 0; b = b[min(len(b), n):] {
			parts = append(parts, b[:min(len(b), n)])
		}
	}
	for i, p := range parts {
		if err := r.objects.Write(ctx, artifactKey(client, env, stack, digest, i+1), p, Any); err != nil {
			return fmt.Errorf("keep the artifact of stack %s: %w", stack, err)
		}
	}
	b, err := json.Marshal(artifactRecord{Parts: len(parts), Size: len(data)})
	if err != nil {
		return err
	}
	if err := r.objects.Write(ctx, rec, b, Any); err != nil {
		return fmt.Errorf("keep the artifact of stack %s: %w", stack, err)
	}
	return r.dropArtifacts(ctx, client, env, stack, rec.File)
}

// KeptArtifact returns the artifact of digest a stack kept, its sha256
// checked: ErrNotFound when the stack kept none of that digest.
func (r *Records) KeptArtifact(ctx context.Context, client, env, stack, digest string) ([]byte, error) {
	if !artifactDigest.MatchString(digest) {
		return nil, fmt.Errorf("read the kept artifact of stack %s: digest %q is not sha256:<64 hex digits>", stack, digest)
	}
	b, _, err := r.objects.Read(ctx, artifactKey(client, env, stack, digest, 0))
	if err != nil {
		return nil, fmt.Errorf("read the kept artifact of stack %s: %w", stack, err)
	}
	var rec artifactRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("read the kept artifact of stack %s: %s: %w", stack, r.objects.Name(artifactKey(client, env, stack, digest, 0)), err)
	}
	var data bytes.Buffer
	for i := 1; i <= rec.Parts; i++ {
		p, _, err := r.objects.Read(ctx, artifactKey(client, env, stack, digest, i))
		if err != nil {
			return nil, fmt.Errorf("read the kept artifact of stack %s: %w", stack, err)
		}
		data.Write(p)
	}
	if got := "sha256:" + sha256Hex(data.Bytes()); got != digest {
		return nil, fmt.Errorf("read the kept artifact of stack %s: its content is %s, not %s: it was changed outside strata", stack, got, digest)
	}
	return data.Bytes(), nil
}

// DropArtifacts deletes every artifact a stack kept: once the stack is
// gone, its object's finalizer removed.
func (r *Records) DropArtifacts(ctx context.Context, client, env, stack string) error {
	return r.dropArtifacts(ctx, client, env, stack, "")
}

// dropArtifacts deletes the artifacts a stack kept but the one of digest
// hex keep: each record before its parts, so that none is found half
// gone.
func (r *Records) dropArtifacts(ctx context.Context, client, env, stack, keep string) error {
	list, err := r.objects.List(ctx, Key{Kind: Artifact, Client: client, Env: env, Stack: stack})
	if err != nil {
		return fmt.Errorf("drop the kept artifacts of stack %s: %w", stack, err)
	}
	for pass := range 2 {
		for _, e := range list {
			if e.Key.File == keep || (e.Key.Number == 0) != (pass == 0) {
				continue
			}
			if err := r.objects.Delete(ctx, e.Key); err != nil {
				return fmt.Errorf("drop the kept artifacts of stack %s: %w", stack, err)
			}
		}
	}
	return nil
}

// sha256Hex is digest, for the functions whose argument shadows it.
var sha256Hex = digest
