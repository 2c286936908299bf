package ssm

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/strata-iac/strata/contracts"
)

// GetByPath reads every document under prefix, decrypted, keyed by its
// full key, in as few requests as SSM allows (GetParametersByPath,
// recursive). prefix is a path as for List. A parameter under prefix that
// is not a contract document is an error naming it. Consumers that read
// many documents, such as a regex selection, use it instead of List and
// Get.
func (s *Store) GetByPath(ctx context.Context, prefix string) (map[string]contracts.Document, error) {
	docs := map[string]contracts.Document{}
	err := s.byPath(ctx, prefix, true, func(p types.Parameter) error {
		key := aws.ToString(p.Name)
		d, err := decode(aws.ToString(p.Value))
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		docs[key] = d
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("get contracts under %s from ssm: %w", prefix, err)
	}
	return docs, nil
}
