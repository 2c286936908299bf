package ssm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsssm "github.com/aws/aws-sdk-go-v2/service/ssm"
	"github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/strata-iac/strata/contracts"
)

// Get reads the parameter named key, decrypted; the error wraps
// contracts.ErrNotFound when there is none.
func (s *Store) Get(ctx context.Context, key string) (contracts.Document, error) {
	if err := checkKey(key, false); err != nil {
		return contracts.Document{}, fmt.Errorf("get contract from ssm: %w", err)
	}
	out, err := s.api.GetParameter(ctx, &awsssm.GetParameterInput{
		Name:           aws.String(key),
		WithDecryption: aws.Bool(true),
	})
	var notFound *types.ParameterNotFound
	if errors.As(err, &notFound) {
		return contracts.Document{}, fmt.Errorf("get contract %s from ssm: %w", key, contracts.ErrNotFound)
	}
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s from ssm: %w", key, err)
	}
	if out.Parameter == nil {
		return contracts.Document{}, fmt.Errorf("get contract %s from ssm: the answer holds no parameter", key)
	}
	d, err := decode(aws.ToString(out.Parameter.Value))
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s from ssm: %w", key, err)
	}
	return d, nil
}

// decode reads a parameter value as a document. Reading is lenient where
// writing is strict: a document some other writer left without public or
// private gets empty maps.
func decode(value string) (contracts.Document, error) {
	var d contracts.Document
	if err := json.Unmarshal([]byte(value), &d); err != nil {
		return contracts.Document{}, fmt.Errorf("decode: the value is not a contract document: %w", err)
	}
	if d.Public == nil {
		d.Public = map[string]any{}
	}
	if d.Private == nil {
		d.Private = map[string]any{}
	}
	return d, nil
}
