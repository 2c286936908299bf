package rendercache

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
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
	// Stat is a tree's stat digest (see treeDigest), when it has one:
	// a tree whose stat digest is the same is not read again.
	Stat string `json:"stat,omitempty"`
}

// Recorder collects the inputs of one render. It is safe for concurrent
// use.
//
// An input that a tree recorded before it already covers is left out of
// Inputs: a manifest's content or kind, a directory's kind, listing or
// tree, a name's absence from a directory of the tree. Only those first read
// after the tree was probed are left out, so that the tree's digest is
// never older than the read it stands for.
type Recorder struct {
	mu     sync.Mutex
	inputs map[inputKey]recorded
	seq    int
	// covered are the paths trees recorded, with the order of the first
	// tree that did: manifests (false) and directories (true).
	covered map[string]coverage
}

type inputKey struct {
	kind Kind
	path string
}

type recorded struct {
	digest string
	stat   string
	seq    int
}

type coverage struct {
	dir bool
	seq int
}

// NewRecorder returns a Recorder with no inputs.
func NewRecorder() *Recorder {
	return &Recorder{inputs: map[inputKey]recorded{}, covered: map[string]coverage{}}
}

// File records the content of a file as the render read it.
func (r *Recorder) File(path string, content []byte) {
	r.add(File, path, digestBytes(content), "", nil)
}

// Probe records what kind of path is now: call it before the render
// reads the path.
func (r *Recorder) Probe(kind Kind, path string) {
	if kind == Tree {
		d, walked, stat := treeDigest(path, nil)
		r.add(kind, path, d, stat, walked)
		return
	}
	r.add(kind, path, probe(kind, path, nil), "", nil)
}

func (r *Recorder) add(kind Kind, path, digest, stat string, walked map[string]bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	k := inputKey{kind, path}
	if prev, ok := r.inputs[k]; ok {
		switch {
		case prev.digest != digest:
			r.inputs[k] = recorded{digest: conflict, seq: prev.seq}
		case prev.stat != stat:
			// The same content, found by two stats: only the
			// content stands for it.
			prev.stat = ""
			r.inputs[k] = prev
		}
		return
	}
	r.inputs[k] = recorded{digest: digest, stat: stat, seq: r.seq}
	for p, dir := range walked {
		if _, ok := r.covered[p]; !ok {
			r.covered[p] = coverage{dir: dir, seq: r.seq}
		}
	}
}

// coveredBy reports whether a tree recorded before the input covers it.
func (r *Recorder) coveredBy(k inputKey, in recorded) bool {
	if k.kind == Glob || in.digest == conflict {
		return false
	}
	if c, ok := r.covered[k.path]; ok && c.seq < in.seq {
		if c.dir {
			return k.kind == Stat || k.kind == List || k.kind == Tree
		}
		return k.kind == Stat || k.kind == File
	}
	if in.digest != absent {
		return false
	}
	c, ok := r.covered[filepath.Dir(k.path)]
	return ok && c.dir && c.seq < in.seq
}

// Inputs returns the inputs recorded, sorted by path and kind, without
// those a tree covers.
func (r *Recorder) Inputs() []Input {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Input, 0, len(r.inputs))
	for k, in := range r.inputs {
		if !r.coveredBy(k, in) {
			out = append(out, Input{Kind: k.kind, Path: k.path, Digest: in.digest, Stat: in.stat})
		}
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
