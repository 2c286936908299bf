package s3

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/internal/awsconfig"
)

// Get reads the object ObjectKey(key); the error wraps
// contracts.ErrNotFound when there is none. A missing bucket is an error,
// not ErrNotFound.
func (s *Store) Get(ctx context.Context, key string) (contracts.Document, error) {
	object, err := ObjectKey(key)
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract from s3: %w", err)
	}
	obj, ok, err := awsconfig.GetObject(ctx, s.api, s.bucket, object)
	if err == nil && !ok {
		err = contracts.ErrNotFound
	}
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s from s3://%s/%s: %w", key, s.bucket, object, err)
	}
	d, err := decode(obj.Data)
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s from s3://%s/%s: %w", key, s.bucket, object, err)
	}
	return d, nil
}

// decode reads an object as a document. Reading is lenient where writing
// is strict: a document some other writer left without public or private
// gets empty maps.
func decode(data []byte) (contracts.Document, error) {
	var d contracts.Document
	if err := json.Unmarshal(data, &d); err != nil {
		return contracts.Document{}, fmt.Errorf("decode: the object is not a contract document: %w", err)
	}
	if d.Public == nil {
		d.Public = map[string]any{}
	}
	if d.Private == nil {
		d.Private = map[string]any{}
	}
	return d, nil
}
