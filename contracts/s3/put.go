package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/strata-iac/strata/contracts"
)

// Put checks the document against the schema and writes it as the object
// ObjectKey(key), replacing any there: indented JSON, content type
// application/json, server-side encrypted with SSE-S3, or SSE-KMS when the
// store has a KMS key.
func (s *Store) Put(ctx context.Context, key string, d contracts.Document) error {
	object, err := ObjectKey(key)
	if err != nil {
		return fmt.Errorf("put contract to s3: %w", err)
	}
	if err := contracts.Validate(d); err != nil {
		return fmt.Errorf("put contract %s to s3: %w", key, err)
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("put contract %s to s3: encode: %w", key, err)
	}
	data = append(data, '\n')
	in := &awss3.PutObjectInput{
		Bucket:               aws.String(s.bucket),
		Key:                  aws.String(object),
		Body:                 bytes.NewReader(data),
		ContentType:          aws.String("application/json"),
		ServerSideEncryption: types.ServerSideEncryptionAes256,
	}
	if s.kmsKeyID != "" {
		in.ServerSideEncryption = types.ServerSideEncryptionAwsKms
		in.SSEKMSKeyId = aws.String(s.kmsKeyID)
	}
	if _, err := s.api.PutObject(ctx, in); err != nil {
		return fmt.Errorf("put contract %s to s3://%s/%s: %w", key, s.bucket, object, err)
	}
	return nil
}
