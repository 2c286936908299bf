package rendercache

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"sync"
)

// Kind is what of a path an input records.
type Kind string

// The kinds of inputs.
const (
	// File is a file's content.
	File Kind = "file"
	// Stat is whether a path is absent, a file or a directory.
	Stat Kind = "stat"
	// List is a directory's entries: names and kinds.
	List Kind = "list"
	// Glob is the paths a pattern matches.
	Glob Kind = "glob"
	// Tree is every name and kind below a directory, with the content of
	// each YAML and kustomization file.
	Tree Kind = "tree"
)

// conflict is the digest of an input read twice with two results: no
// read matches it.
const conflict = "conflict"

// Input is one thing a render read, as a digest.
type Input struct {
	Kind   Kind   `json:"kind"`
	Path   string `json:"path"`
	Digest string `json:"digest"`
}

// Recorder collects the inputs of one render. It is safe for concurrent
// use.
type Recorder struct {
	mu     sync.Mutex
	inputs map[inputKey]string
}

type inputKey struct {
	kind Kind
	path string
}

// NewRecorder returns a Recorder with no inputs.
func NewRecorder() *Recorder { return &Recorder{inputs: map[inputKey]string{}} }

// File records the content of a file as the render read it.
func (r *Recorder) File(path string, content []byte) {
	r.add(File, path, digestBytes(content))
}

// Probe records what kind of path is now: call it before the render
// reads the path.
func (r *Recorder) Probe(kind Kind, path string) {
	r.add(kind, path, probe(kind, path))
}

func (r *Recorder) add(kind Kind, path, digest string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := inputKey{kind, path}
	if prev, ok := r.inputs[k]; ok && prev != digest {
		digest = conflict
	}
	r.inputs[k] = digest
}

// Inputs returns the inputs recorded, sorted by path and kind.
func (r *Recorder) Inputs() []Input {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Input, 0, len(r.inputs))
	for k, d := range r.inputs {
		out = append(out, Input{Kind: k.kind, Path: k.path, Digest: d})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// digestBytes is the hex SHA-256 of b.
func digestBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
