package history

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// key is a run number as stored: big-endian, so keys sort by number.
func key(n int) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, uint64(n))
	return b
}

// keyNumber is the run number of a key.
func keyNumber(k []byte) int {
	if len(k) != 8 {
		return 0
	}
	return int(binary.BigEndian.Uint64(k))
}

// stackBucket returns the bucket of a stack's runs, or nil when the stack
// has none.
func stackBucket(tx *bolt.Tx, client, env, stack string) *bolt.Bucket {
	eb := envBucket(tx, client, env)
	if eb == nil {
		return nil
	}
	return eb.Bucket([]byte(stack))
}

// envBucket returns the bucket of an environment's stacks, or nil when
// it has none.
func envBucket(tx *bolt.Tx, client, env string) *bolt.Bucket {
	cb := tx.Bucket([]byte(client))
	if cb == nil {
		return nil
	}
	return cb.Bucket([]byte(env))
}

// createStackBucket returns the bucket of a stack's runs, creating it.
func createStackBucket(tx *bolt.Tx, client, env, stack string) (*bolt.Bucket, error) {
	if client == "" || env == "" || stack == "" {
		return nil, errKeysRequired
	}
	b, err := tx.CreateBucketIfNotExists([]byte(client))
	if err != nil {
		return nil, err
	}
	if b, err = b.CreateBucketIfNotExists([]byte(env)); err != nil {
		return nil, err
	}
	return b.CreateBucketIfNotExists([]byte(stack))
}

// putRun stores r under its number.
func putRun(b *bolt.Bucket, r Run) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return b.Put(key(r.Number), v)
}

// decode reads a stored run.
func decode(k, v []byte) (Run, error) {
	var r Run
	if err := json.Unmarshal(v, &r); err != nil {
		return Run{}, fmt.Errorf("decode run #%d: %w", keyNumber(k), err)
	}
	return r, nil
}
