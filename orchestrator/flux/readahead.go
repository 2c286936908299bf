package flux

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	yaml3 "go.yaml.in/yaml/v3"

	"github.com/strata-iac/strata/internal/regularfile"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// readAhead reads, on a goroutine of its own, what a load is about to
// read: the entry directory's manifests; for each Kustomization queued,
// its directory, its kustomization file and the manifests that file
// lists, each parsed as readChecked parses it; and the stacks' module
// directories, listed before the stacks are built. A load is serial; on
// a second CPU, the system calls and the YAML parsing of the next
// Kustomizations then run beside the build of the current one.
//
// The loader takes each part of an answer once: the parsed documents are
// the build's to change. Only calls that succeeded are kept; whatever
// was not read ahead, or failed, the loader reads itself, so that every
// error is its own read's. An answer is what the same call made a moment
// earlier found: a file changed while the load runs may be seen as it
// was, as it may be between two reads of one load.
//
// What is held is bounded: the goroutine reads while fewer than
// aheadWindow wants are answered and not let go of. A want is let go of
// once the loader took every part of its answers, or said it is done
// with it (release). A want the loader reached before the goroutine did
// is skipped: the loader read it itself.
type readAhead struct {
	// rel is the loader's relPath; known reports whether the disk reads
	// a path itself (resolvedFS.knownDir), resolving its directory on
	// the way.
	rel   func(string) string
	known func(string) bool
	// ignoreFiles are the names of the ignore files the artifact rules
	// read in each directory, read ahead with its Kustomization.
	ignoreFiles []string
	// resources are the manifests each kustomization file's content
	// lists, nil for a file no plain build reads (the goroutine's own).
	resources map[string][]string

	mu   sync.Mutex
	wake *sync.Cond
	// queue are the wants not read yet, in order; wants all those not
	// let go of, by path; held counts those answered.
	queue []*aheadWant
	wants map[string]*aheadWant
	held  int
	// answers are the answers not let go of, by path.
	answers map[string]*aheadAnswer
	// taken counts the parts of answers the loader took.
	taken int
	// waiting says the goroutine waits for wants or for room.
	waiting, stopped bool
	done             chan struct{}
}

// aheadWindow is how many wants may be answered and not let go of: as
// many as the files of the entry directory a plain build reads at once
// (entryPart), so that the goroutine stays ahead while the load collects
// a part. With fewer, the load caught up with it at every part.
const aheadWindow = 256

// aheadWant is one thing to read.
type aheadWant struct {
	path  string
	kind  wantKind
	state wantState
	// paths are its answers' paths; parts counts the parts of them not
	// taken.
	paths []string
	parts int
}

// wantKind is what a want reads.
type wantKind int

const (
	// wantManifest is a manifest of a build.
	wantManifest wantKind = iota
	// wantKustomization is a Kustomization's directory (readKustomization).
	wantKustomization
	// wantListing is a stack's module directory, listed (moduleDirOf).
	wantListing
)

// wantState is where a want is.
type wantState int

const (
	wantQueued wantState = iota
	wantReading
	wantAnswered
	wantGone // let go of, or skipped
)

// aheadAnswer is what was read of one path; each part is nil once taken
// (or when its call failed).
type aheadAnswer struct {
	want *aheadWant
	// info is os.Stat's answer.
	info fs.FileInfo
	// data is regularfile.ReadFileNoFollow's, read with the limit
	// MaxManifestBytes.
	data []byte
	// docs and problems are decodeYAML(rel, data)'s, when parsed; first
	// and size are data's, which the loader's bytes must be for them to
	// be its answer.
	docs     []*yaml3.Node
	problems []diag.Problem
	rel      string
	first    *byte
	size     int
	parsed   bool
	// entries are os.ReadDir's answer, when listed.
	entries []os.DirEntry
	listed  bool
	// ignore is the content of an ignore file the artifact rules read
	// (readIgnore), when ignoreRead; ignoreAbsent says there was none.
	ignore       []byte
	ignoreRead   bool
	ignoreAbsent bool
}

// parts counts the parts of a not taken.
func (a *aheadAnswer) parts() int {
	n := 0
	if a.info != nil {
		n++
	}
	if a.data != nil {
		n++
	}
	if a.parsed {
		n++
	}
	if a.listed {
		n++
	}
	if a.ignoreRead {
		n++
	}
	return n
}

// readAheadOn turns reading ahead on, and the decoding the load hands to
// goroutines of its own (decodeBehind, rawAhead); tests turn it off to
// compare.
var readAheadOn = true

// startReadAhead starts the loader's reading ahead, when its disk reads
// paths itself (resolvedFS); stop ends it.
func (l *loader) startReadAhead() {
	if !readAheadOn || l.ahead != nil {
		return
	}
	disk, err := l.diskFS()
	if err != nil {
		return
	}
	resolved, ok := disk.(resolvedFS)
	if !ok {
		return
	}
	r := newReadAhead(l.relPath, resolved.knownDir, l.checkout.IgnoreFiles())
	resolved.ahead = r
	l.disk, l.ahead = resolved, r
	l.checkout.ReadWith(r.readIgnore)
	go r.run()
}

// stopReadAhead ends the loader's reading ahead.
func (l *loader) stopReadAhead() {
	if l.ahead == nil {
		return
	}
	l.checkout.ReadWith(nil)
	l.ahead.stop()
}

// newReadAhead returns a readAhead whose goroutine is not started; it
// reads ahead the ignore files named ignoreFiles, those the artifact
// rules read (checkout.Cache.IgnoreFiles).
func newReadAhead(rel func(string) string, known func(string) bool, ignoreFiles []string) *readAhead {
	r := &readAhead{
		rel: rel, known: known, ignoreFiles: ignoreFiles, resources: map[string][]string{},
		wants: map[string]*aheadWant{}, answers: map[string]*aheadAnswer{},
		done: make(chan struct{}),
	}
	r.wake = sync.NewCond(&r.mu)
	return r
}

// stop ends the goroutine and lets go of every answer. It waits for the
// goroutine to end, so that nothing reads on once the load returns.
func (r *readAhead) stop() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.stopped = true
	r.queue, r.wants, r.answers = nil, nil, nil
	r.wake.Broadcast()
	r.mu.Unlock()
	<-r.done
}

// wantFiles asks for the manifests dir (absolute) lists, in order.
func (r *readAhead) wantFiles(dir string, files []string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range files {
		r.add(filepath.Join(dir, filepath.FromSlash(f)), wantManifest)
	}
}

// readAheadOf asks for the directories of Kustomizations queued, in the
// order they are to be built.
func (l *loader) readAheadOf(ks []*kustomization) {
	if l.ahead == nil {
		return
	}
	r := l.ahead
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range ks {
		if dir := l.aheadDir(k); dir != "" {
			r.add(dir, wantKustomization)
		}
	}
}

// aheadDir is the directory, absolute, of a Kustomization's spec.path,
// as it is asked for (readAheadOf) and let go of (doneWith); "" for a
// path that leaves the repository.
func (l *loader) aheadDir(k *kustomization) string {
	if dir, ok := cleanPath(k.Spec.Path); ok {
		return l.abs(dir)
	}
	return ""
}

// listAhead asks for the module directories of the Terraform objects
// about to be built, in order: each spec.path of a GitRepository, which
// checkModuleDir lists when it is this repository.
func (l *loader) listAhead(tfs []*terraform) {
	if l.ahead == nil {
		return
	}
	r := l.ahead
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, tf := range tfs {
		if dir := l.listedAhead(tf); dir != "" {
			r.add(dir, wantListing)
		}
	}
}

// listedAhead is the directory, absolute, that checkModuleDir lists for
// a Terraform object not built yet when its source is this repository
// (listAhead), for release once it is built; "" for none.
func (l *loader) listedAhead(tf *terraform) string {
	if l.ahead == nil || tf.Spec == nil {
		return ""
	}
	ref := tf.source()
	if ref == nil || ref.Kind != environment.SourceGitRepository {
		return ""
	}
	if dir, ok := cleanPath(tf.Spec.Path); ok {
		return l.abs(dir)
	}
	return ""
}

// doneWith lets go of what was read ahead of a Kustomization built, or
// put off until what it depends on is (follow): a Kustomization put off
// is asked for again, in its new place.
func (l *loader) doneWith(k *kustomization) {
	if l.ahead != nil {
		l.ahead.release(l.aheadDir(k))
	}
}

// add queues a want of a path not wanted already; r.mu is held.
func (r *readAhead) add(p string, kind wantKind) {
	if r.stopped || r.wants[p] != nil {
		return
	}
	w := &aheadWant{path: p, kind: kind}
	r.wants[p] = w
	r.queue = append(r.queue, w)
	if r.waiting {
		r.wake.Signal()
	}
}

// run reads the wants in order, while there is room, until stopped.
func (r *readAhead) run() {
	defer close(r.done)
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		for !r.stopped && (len(r.queue) == 0 || r.held >= aheadWindow) {
			r.waiting = true
			r.wake.Wait()
		}
		r.waiting = false
		if r.stopped {
			return
		}
		r.readNext()
	}
}

// readNext reads the first want queued, unless the loader let go of it;
// r.mu is held, and let go of while it reads.
func (r *readAhead) readNext() {
	w := r.queue[0]
	r.queue[0] = nil
	r.queue = r.queue[1:]
	if w.state != wantQueued {
		return
	}
	w.state = wantReading
	r.mu.Unlock()
	var got []pathAnswer
	keep := func(p string, a *aheadAnswer) {
		a.want = w
		got = append(got, pathAnswer{p, a})
	}
	func() {
		defer func() {
			if recover() != nil {
				// Nothing is kept: the loader reads it itself, where
				// a panic is the load's error (readAt).
				got = nil
			}
		}()
		switch w.kind {
		case wantKustomization:
			r.readKustomization(w.path, keep)
		case wantListing:
			if entries, err := os.ReadDir(w.path); err == nil {
				keep(w.path, &aheadAnswer{entries: entries, listed: true})
			}
		default:
			r.readManifest(w.path, keep)
		}
	}()
	r.mu.Lock()
	r.answer(w, got)
}

// pathAnswer is what was read of a path.
type pathAnswer struct {
	path   string
	answer *aheadAnswer
}

// answer keeps what was read for w, unless the loader let go of it while
// it was read, or stopped (a load stopped by a signal stops reading ahead
// while a want is read); r.mu is held.
func (r *readAhead) answer(w *aheadWant, got []pathAnswer) {
	if r.stopped || w.state != wantReading {
		return
	}
	w.state = wantAnswered
	r.held++
	for _, g := range got {
		if r.answers[g.path] != nil {
			// An answer not taken yet stands: another want's, or this
			// one's of a path read twice (a manifest listed twice).
			continue
		}
		r.answers[g.path] = g.answer
		w.paths = append(w.paths, g.path)
		w.parts += g.answer.parts()
	}
	if w.parts == 0 {
		r.letGo(w)
	}
}

// readKustomization reads a Kustomization's directory as a plain build reads it
// (kustomizationPath's stat, plainFile's read of the kustomization file,
// then each manifest it lists).
func (r *readAhead) readKustomization(dir string, keep func(string, *aheadAnswer)) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return
	}
	keep(dir, &aheadAnswer{info: fi})
	r.readIgnores(dir, keep)
	for _, name := range kustomizeFileNames {
		p := filepath.Join(dir, name)
		if !r.known(p) {
			return
		}
		b, err := regularfile.ReadFileNoFollow(p, MaxManifestBytes)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return
		}
		// plainFile reads it, and parses it its own way.
		keep(p, &aheadAnswer{data: b})
		if mayExpand(b) {
			return
		}
		resources, ok := r.resources[string(b)]
		if !ok {
			k, plain := plainKustomizationOf(b, false)
			resources = k.resources
			if !plain {
				resources = nil
			}
			r.resources[string(b)] = resources
		}
		for _, f := range resources {
			r.readManifest(filepath.Join(dir, filepath.FromSlash(f)), keep)
		}
		return
	}
}

// readIgnores reads the ignore files of dir, as the artifact rules read
// them when the build first asks about a path in dir (readIgnore): in a
// fleet, an open of a file that is not there for each Kustomization, two
// in a git checkout.
// Only a regular file is read, or the want of one that is not there
// kept.
func (r *readAhead) readIgnores(dir string, keep func(string, *aheadAnswer)) {
	for _, name := range r.ignoreFiles {
		p := filepath.Join(dir, name)
		b, err := regularfile.ReadFile(p, 0)
		switch {
		case err == nil:
			keep(p, &aheadAnswer{ignore: b, ignoreRead: true})
		case errors.Is(err, fs.ErrNotExist):
			keep(p, &aheadAnswer{ignoreRead: true, ignoreAbsent: true})
		}
	}
}

// readIgnore is os.ReadFile(p) of an ignore file, as read ahead when it
// was (checkout.Cache.ReadWith).
func (r *readAhead) readIgnore(p string) ([]byte, error) {
	var b []byte
	read, absent := false, false
	r.take(p, func(a *aheadAnswer) bool {
		if !a.ignoreRead {
			return false
		}
		b, read, absent = a.ignore, true, a.ignoreAbsent
		a.ignore, a.ignoreRead, a.ignoreAbsent = nil, false, false
		return true
	})
	switch {
	case absent:
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	case read:
		return b, nil
	}
	return os.ReadFile(p)
}

// readManifest reads a manifest as readChecked reads it: its stat, then,
// for a regular file within the limit, its content and documents.
func (r *readAhead) readManifest(p string, keep func(string, *aheadAnswer)) {
	fi, err := os.Stat(p)
	if err != nil {
		return
	}
	a := &aheadAnswer{info: fi}
	if fi.Mode().IsRegular() && fi.Size() <= MaxManifestBytes && r.known(p) {
		if b, err := regularfile.ReadFileNoFollow(p, MaxManifestBytes); err == nil {
			a.data = b
			r.parse(p, a)
		}
	}
	keep(p, a)
}

// parse adds to a what decodeYAML makes of its data, for a manifest
// readChecked would decode.
func (r *readAhead) parse(p string, a *aheadAnswer) {
	rel := r.rel(p)
	if !isManifest(p) || strings.HasPrefix(rel, "../") || len(a.data) == 0 {
		return
	}
	a.docs, a.problems = decodeYAML(rel, a.data)
	a.rel, a.first, a.size, a.parsed = rel, &a.data[0], len(a.data), true
}

// letGo drops a want and its answers not taken; r.mu is held.
func (r *readAhead) letGo(w *aheadWant) {
	if w.state == wantAnswered {
		r.held--
		for _, p := range w.paths {
			if a := r.answers[p]; a != nil && a.want == w {
				delete(r.answers, p)
			}
		}
		if r.waiting && r.held <= aheadWindow/2 {
			// Woken when half the room is free, not at each want: a
			// wake is a system call on each side.
			r.wake.Signal()
		}
	}
	w.state = wantGone
	if r.wants[w.path] == w {
		delete(r.wants, w.path)
	}
}

// release says the loader is done with the want of p: what is left of
// its answers is let go of, and a want not read yet is not read.
func (r *readAhead) release(p string) {
	if r == nil || p == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if w := r.wants[filepath.Clean(p)]; w != nil {
		r.letGo(w)
	}
}

// releaseFiles is release of the manifests dir (absolute) lists.
func (r *readAhead) releaseFiles(dir string, files []string) {
	for _, f := range files {
		r.release(filepath.Join(dir, filepath.FromSlash(f)))
	}
}

// take returns the answer of p, for the loader to take a part of with
// part, which reports whether it took one. A want of p not answered yet
// is let go of: the loader reads it itself.
func (r *readAhead) take(p string, part func(*aheadAnswer) bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p = filepath.Clean(p)
	a := r.answers[p]
	if a == nil {
		if w := r.wants[p]; w != nil && w.state != wantAnswered {
			// Reached before it was read, or while it was.
			r.letGo(w)
		}
		return
	}
	if part(a) {
		r.taken++
		if a.want.parts--; a.want.parts == 0 {
			r.letGo(a.want)
		}
	}
}

// stat is os.Stat(p), as read ahead when it was.
func (r *readAhead) stat(p string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	r.take(p, func(a *aheadAnswer) bool {
		fi, a.info = a.info, nil
		return fi != nil
	})
	if fi != nil {
		return fi, nil
	}
	return os.Stat(p)
}

// listDir is os.ReadDir(p), as read ahead when it was.
func (r *readAhead) listDir(p string) ([]os.DirEntry, error) {
	var entries []os.DirEntry
	ok := false
	r.take(p, func(a *aheadAnswer) bool {
		entries, ok = a.entries, a.listed
		a.entries, a.listed = nil, false
		return ok
	})
	if ok {
		return entries, nil
	}
	return os.ReadDir(p)
}

// statRegular is regularfile.Stat(p), as read ahead when it was.
func (r *readAhead) statRegular(p string) (fs.FileInfo, error) {
	if fi, err := r.stat(p); err != nil || fi.Mode().IsRegular() {
		return fi, err
	}
	return regularfile.Stat(p)
}

// readNoFollow is regularfile.ReadFileNoFollow(p, max), as read ahead
// when it was.
func (r *readAhead) readNoFollow(p string, max int64) ([]byte, error) {
	var b []byte
	r.take(p, func(a *aheadAnswer) bool {
		if a.data == nil || (max > 0 && int64(len(a.data)) > max) {
			return false
		}
		b, a.data = a.data, nil
		return true
	})
	if b != nil {
		return b, nil
	}
	return regularfile.ReadFileNoFollow(p, max)
}

// decode is decodeYAML(rel, b) of the manifest p, as parsed ahead when b
// is the content read ahead.
func (r *readAhead) decode(p, rel string, b []byte) ([]*yaml3.Node, []diag.Problem) {
	var docs []*yaml3.Node
	var ps []diag.Problem
	ok := false
	if len(b) > 0 {
		r.take(p, func(a *aheadAnswer) bool {
			ok = a.parsed && a.first == &b[0] && a.size == len(b) && a.rel == rel
			if ok {
				docs, ps = a.docs, a.problems
				a.docs, a.problems, a.parsed = nil, nil, false
			}
			return ok
		})
	}
	if ok {
		return docs, ps
	}
	return decodeYAML(rel, b)
}
