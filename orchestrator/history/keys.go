package history

import (
	"context"
	"errors"
)

// errKeysRequired is a run without client, env or stack.
var errKeysRequired = errors.New("client, env and stack are required")

// CheckKeys refuses a record of a stack without its keys, and a
// cancelled context: every store of runs and held plans (the bbolt file,
// the cluster's objects, a bucket) files them under client, environment
// and stack.
func CheckKeys(ctx context.Context, client, env, stack string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if client == "" || env == "" || stack == "" {
		return errKeysRequired
	}
	return nil
}
