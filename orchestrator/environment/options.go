package environment

import (
	"context"
	"encoding/json"
)

// Options change how an environment loads. They travel in the context
// (WithOptions), so that Load, LoadCached and every caller between the
// command line and the loader keep their signatures.
type Options struct {
	// SelfSources name, as Kind/namespace/name, sources that are this
	// repository under another name (a checkout with no remote).
	SelfSources []string `json:",omitempty"`
	// StrictSubstitution is Flux's StrictPostBuildSubstitutions feature
	// gate for every object: a variable that is missing and has no
	// default is a problem of the object, not an empty string.
	StrictSubstitution bool `json:",omitempty"`
	// Inputs finds the ConfigMaps and Secrets the repository names but
	// does not hold (--inputs, --kubeconfig); nil finds none, and what
	// needs them waits.
	Inputs Inputs `json:"-"`
}

type optionsKey struct{}

// WithOptions returns a context whose loads use opts.
func WithOptions(ctx context.Context, opts Options) context.Context {
	return context.WithValue(ctx, optionsKey{}, opts)
}

// optionsFrom returns the options ctx carries, or none.
func optionsFrom(ctx context.Context) Options {
	opts, _ := ctx.Value(optionsKey{}).(Options)
	return opts
}

// identity is what of the options a render depends on, for the render
// cache's key. Inputs say their own (Inputs.Identity).
func (o Options) identity() string {
	b, _ := json.Marshal(o)
	id := string(b)
	if o.Inputs != nil {
		id += "\x00" + o.Inputs.Identity()
	}
	return id
}
