package s3

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
)

// List returns the keys of the documents under prefix, at any depth,
// sorted; not the document at prefix itself. prefix is a key path:
// "/configuration" lists "/configuration/foo" (object
// configuration/foo.json) but not "/configurations/x"; "" and "/" list
// every document in the bucket. Objects that are not named like a document
// are skipped.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	objPrefix, err := objectPrefix(prefix)
	if err != nil {
		return nil, fmt.Errorf("list contracts %s in s3: %w", prefix, err)
	}
	pages := awss3.NewListObjectsV2Paginator(s.api, &awss3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket),
		Prefix: aws.String(objPrefix),
	})
	var keys []string
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list contracts %s in s3://%s/%s: %w", prefix, s.bucket, objPrefix, err)
		}
		for _, o := range page.Contents {
			if key, ok := keyOf(aws.ToString(o.Key)); ok {
				keys = append(keys, key)
			}
		}
	}
	slices.Sort(keys)
	return keys, nil
}
