package s3

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/strata-iac/strata/contracts"
)

// Get reads the object ObjectKey(key); the error wraps
// contracts.ErrNotFound when there is none. A missing bucket is an error,
// not ErrNotFound.
func (s *Store) Get(ctx context.Context, key string) (contracts.Document, error) {
	object, err := ObjectKey(key)
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract from s3: %w", err)
	}
	out, err := s.api.GetObject(ctx, &awss3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(object)})
	if isNotFound(err) {
		return contracts.Document{}, fmt.Errorf("get contract %s from s3://%s/%s: %w", key, s.bucket, object, contracts.ErrNotFound)
	}
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s from s3://%s/%s: %w", key, s.bucket, object, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s from s3://%s/%s: read: %w", key, s.bucket, object, err)
	}
	d, err := decode(data)
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s from s3://%s/%s: %w", key, s.bucket, object, err)
	}
	return d, nil
}

// isNotFound tells whether err says the object does not exist.
func isNotFound(err error) bool {
	var noKey *types.NoSuchKey
	var notFound *types.NotFound
	if errors.As(err, &noKey) || errors.As(err, &notFound) {
		return true
	}
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode() == "NoSuchKey" || apiErr.ErrorCode() == "NotFound")
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
