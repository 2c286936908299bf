package environment

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Options change how an environment loads. They travel in the context
// (WithOptions), so that Load and LoadCached keep their signatures and
// every command that loads an environment loads it the same way.
type Options struct {
	// SelfSources name GitRepository objects that are this repository
	// under another name, as "GitRepository/<namespace>/<name>"
	// (--self-source): for a checkout whose remotes do not say so.
	SelfSources []string `json:"selfSources,omitempty"`
}

type optionsKey struct{}

// WithOptions returns ctx carrying opts.
func WithOptions(ctx context.Context, opts Options) context.Context {
	return context.WithValue(ctx, optionsKey{}, opts)
}

// optionsFrom returns the options ctx carries; the zero Options when it
// carries none.
func optionsFrom(ctx context.Context) Options {
	o, _ := ctx.Value(optionsKey{}).(Options)
	return o
}

// key is the options as the render cache keys on them.
func (o Options) key() string {
	b, _ := json.Marshal(o)
	return string(b)
}

// SelfSource is one --self-source: a GitRepository that is this
// repository.
type SelfSource struct {
	Namespace, Name string
}

// ParseSelfSource parses a --self-source value:
// GitRepository/<namespace>/<name>.
func ParseSelfSource(s string) (SelfSource, error) {
	parts := strings.Split(s, "/")
	if len(parts) != 3 || parts[0] != SourceGitRepository || parts[1] == "" || parts[2] == "" {
		return SelfSource{}, fmt.Errorf("%q is not GitRepository/<namespace>/<name>, e.g. GitRepository/flux-system/platform", s)
	}
	return SelfSource{Namespace: parts[1], Name: parts[2]}, nil
}
