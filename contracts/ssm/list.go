package ssm

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsssm "github.com/aws/aws-sdk-go-v2/service/ssm"
	"github.com/aws/aws-sdk-go-v2/service/ssm/types"
)

// List returns the keys of the parameters under prefix, at any depth,
// sorted; not the parameter named prefix itself. prefix is a path:
// "/configuration" lists "/configuration/foo" and "/configuration/acme/api"
// but not "/configurations/x"; "" and "/" list every parameter.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	err := s.byPath(ctx, prefix, false, func(p types.Parameter) error {
		keys = append(keys, aws.ToString(p.Name))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list contracts %s in ssm: %w", prefix, err)
	}
	slices.Sort(keys)
	return keys, nil
}

// byPath calls fn for every parameter under prefix, page by page, with
// GetParametersByPath.
func (s *Store) byPath(ctx context.Context, prefix string, decrypt bool, fn func(types.Parameter) error) error {
	path := "/" + strings.Trim(prefix, "/")
	if err := checkKey(path, true); err != nil {
		return err
	}
	pages := awsssm.NewGetParametersByPathPaginator(s.api, &awsssm.GetParametersByPathInput{
		Path:           aws.String(path),
		Recursive:      aws.Bool(true),
		WithDecryption: aws.Bool(decrypt),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, p := range page.Parameters {
			if err := fn(p); err != nil {
				return err
			}
		}
	}
	return nil
}
