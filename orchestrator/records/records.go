package records

import (
	"fmt"
	"sync"
)

// DefaultKeep is how many runs of each stack are kept when Config.Keep is
// zero.
const DefaultKeep = 100

// maxWriteTries bounds how often a read-and-write is tried again after
// another writer changed the object in between.
const maxWriteTries = 20

// Config says how the records are kept.
type Config struct {
	// Keep is how many runs of each stack are kept (DefaultKeep when
	// zero), by count alone, in the environments that Retain says
	// nothing of; the first run and the newest good apply are kept
	// beyond them.
	Keep int
	// Dir is a local directory where held plans are written out for tofu
	// and people to read (Held.Dir). Hold and HeldPlan need it; without
	// it, HeldPlans lists plans without their files.
	Dir string
}

// Records keeps history, held plans, approvals and claims in an object
// store. It is safe for any number of goroutines and of processes.
type Records struct {
	objects Objects
	keep    int
	dir     string
	// policies are how each environment's runs are kept (Retain).
	mu       sync.Mutex
	policies map[[2]string]policy
}

// New returns the records kept in objects.
func New(objects Objects, cfg Config) (*Records, error) {
	if cfg.Keep < 0 {
		return nil, fmt.Errorf("keep is %d: keep at least 1 run per stack", cfg.Keep)
	}
	if cfg.Keep == 0 {
		cfg.Keep = DefaultKeep
	}
	return &Records{objects: objects, keep: cfg.Keep, dir: cfg.Dir}, nil
}

// Close releases nothing: the records outlive the process.
func (s *Records) Close() error { return nil }
