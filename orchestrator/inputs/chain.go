package inputs

import (
	"context"
	"strings"
)

// Source is one place inputs come from; Files and a cluster's are two.
type Source interface {
	Get(ctx context.Context, kind, namespace, name string) (map[string]any, string, error)
	Identity() string
}

// Chain looks in each source in turn: the first that holds the object
// gives it.
type Chain []Source

// Get returns the object from the first source that holds it.
func (c Chain) Get(ctx context.Context, kind, namespace, name string) (map[string]any, string, error) {
	for _, s := range c {
		obj, origin, err := s.Get(ctx, kind, namespace, name)
		if err != nil || obj != nil {
			return obj, origin, err
		}
	}
	return nil, "", nil
}

// Identity is the sources' identities, or "" when any source's content
// can change unseen.
func (c Chain) Identity() string {
	ids := make([]string, 0, len(c))
	for _, s := range c {
		id := s.Identity()
		if id == "" {
			return ""
		}
		ids = append(ids, id)
	}
	return strings.Join(ids, "\x00")
}
