package checkout

import (
	"sync"

	"github.com/fluxcd/pkg/sourceignore"

	"github.com/strata-iac/strata/orchestrator/rendercache"
)

// Cache holds the rules of one checkout, one set per GitRepository
// spec.ignore, each made on first use. It is safe for concurrent use.
type Cache struct {
	root string
	rec  *rendercache.Recorder

	mu    sync.Mutex
	rules map[string]*Rules
	read  func(string) ([]byte, error)
}

// NewCache returns the rules cache of the checkout at root; rec, when
// set, records the ignore files the rules read.
func NewCache(root string, rec *rendercache.Recorder) *Cache {
	return &Cache{root: root, rec: rec, rules: map[string]*Rules{}}
}

// For returns the rules of the checkout for a GitRepository whose
// spec.ignore is ignore (nil when unset).
func (c *Cache) For(ignore *string) *Rules {
	key := ignoreKey(ignore)
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.rules[key]
	if !ok {
		r = New(c.root, ignore, c.rec)
		r.read = c.read
		c.rules[key] = r
	}
	return r
}

// IgnoreFiles are the files of a directory the checkout's rules read:
// source-controller's, and git's when the checkout is a git work tree.
func (c *Cache) IgnoreFiles() []string {
	if gitWorkTree(c.root) {
		return []string{sourceignore.IgnoreFile, gitIgnoreFile}
	}
	return []string{sourceignore.IgnoreFile}
}

// ReadWith has the rules read the ignore files with read, which answers
// as os.ReadFile does, rather than with os.ReadFile: a loader that reads
// them ahead of the build hands them over so. nil reads with
// os.ReadFile again.
func (c *Cache) ReadWith(read func(string) ([]byte, error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.read = read
	for _, r := range c.rules {
		r.mu.Lock()
		r.read = read
		r.mu.Unlock()
	}
}

// ignoreKey is spec.ignore as a key: "\x00" when unset, which no text of
// one is.
func ignoreKey(ignore *string) string {
	if ignore == nil {
		return "\x00"
	}
	return *ignore
}
