package contracts

import (
	"context"
	"errors"
)

// ErrNotFound is wrapped by Store.Get when no document has the key.
var ErrNotFound = errors.New("contract not found")

// Store keeps contract documents by key ("/configuration/network"). Every
// store — local files, SSM Parameter Store, S3 — implements it.
type Store interface {
	// Get returns the document at key, or an error wrapping ErrNotFound.
	Get(ctx context.Context, key string) (Document, error)
	// Put writes the document at key, replacing any there.
	Put(ctx context.Context, key string, d Document) error
	// List returns the keys under prefix, sorted.
	List(ctx context.Context, prefix string) ([]string, error)
}
