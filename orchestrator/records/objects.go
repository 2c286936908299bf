package records

import (
	"context"
	"errors"
)

// Kind is what an object keeps.
type Kind int

const (
	// Run is a run of a stack: Client, Env, Stack and Number.
	Run Kind = iota + 1
	// Plan is a held plan's record: Client, Env, Stack and Plan (its
	// id); the plan is held while it exists.
	Plan
	// PlanFile is a piece of a held plan's files: Client, Env, Stack,
	// Plan and File, a file's name or a part's ("part-<i>").
	PlanFile
	// Claims is the claims on identities and state keys, one object.
	Claims
	// Artifact is a piece of the code a stack last ran, kept so that it
	// can be destroyed once its source is gone: Client, Env, Stack, File
	// (the artifact's sha256, hex) and Number (0 for the record that
	// says how many parts there are, then each part from 1).
	Artifact
)

// Key names an object of the records. As the prefix of a listing, the
// fields left empty are those listed: the runs of an environment (Stack
// ""), of a stack, the held plans of a stack, the files of a plan.
type Key struct {
	Kind               Kind
	Client, Env, Stack string
	Number             int
	Plan               string
	File               string
}

// Entry is an object a listing found. Version is "" when the listing
// gave only the key: the engine reads the object when it needs it.
type Entry struct {
	Key     Key
	Data    []byte
	Version string
}

// Any is the version of a write over whatever is there, creating the
// object when there is none.
const Any = ""

var (
	// ErrNotFound is a read of an object there is none of.
	ErrNotFound = errors.New("no such object")
	// ErrChanged is a conditional write that did not hold: Create found
	// the object, or Write found it changed or gone since it was read.
	// The engine reads it again.
	ErrChanged = errors.New("changed by another writer")
)

// Objects is the object store the records are kept in. Every method is
// safe for any number of goroutines and of processes; reads go to the
// store, never a cache. Errors name the object (Name) and wrap ErrNotFound
// or ErrChanged where the method says so.
type Objects interface {
	// Create writes a new object, only if there is none: ErrChanged when
	// there is.
	Create(ctx context.Context, k Key, data []byte) error
	// Read returns an object and its version: ErrNotFound when there is
	// none.
	Read(ctx context.Context, k Key) (data []byte, version string, err error)
	// Write replaces an object if it still has version: ErrChanged when
	// it changed or is gone. With version Any it writes whatever is
	// there, creating the object when there is none.
	Write(ctx context.Context, k Key, data []byte, version string) error
	// Delete deletes an object, whatever its version; one already gone
	// is no error. The engine deletes only what it means to whatever
	// happened to it since: runs beyond Keep, a released plan, the parts
	// a plan held again no longer has.
	Delete(ctx context.Context, k Key) error
	// List returns the objects of prefix.Kind whose keys have the fields
	// prefix sets, in any order.
	List(ctx context.Context, prefix Key) ([]Entry, error)
	// Name is where an object is, for messages.
	Name(k Key) string
	// Location is where the records are, for messages.
	Location() string
	// PartBytes is the most bytes an object of a held plan's files may
	// take; 0 when any size.
	PartBytes() int
}
