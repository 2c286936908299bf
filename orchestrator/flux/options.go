package flux

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// Options change how an environment loads. They travel in the context
// (WithOptions), so that Load, LoadCached and every caller between the
// command line and the loader keep their signatures.
type Options struct {
	// SelfSources name GitRepository objects that are this repository
	// under another name, as "GitRepository/<namespace>/<name>"
	// (--self-source): for a checkout whose remotes do not say so.
	SelfSources []string `json:"selfSources,omitempty"`
	// StrictSubstitution is Flux's StrictPostBuildSubstitutions feature
	// gate for every object: a variable that is missing and has no
	// default is a problem of the object's Kustomization, not an empty
	// string: it blocks that Kustomization's stacks, or is a warning
	// when it brings in none.
	StrictSubstitution bool `json:",omitempty"`
	// ObjectLevelWorkloadIdentity is kustomize-controller's feature gate
	// of that name: without it, a Kustomization whose spec.decryption
	// names a serviceAccountName is stalled.
	ObjectLevelWorkloadIdentity bool `json:",omitempty"`
	// Inputs finds the ConfigMaps and Secrets the repository names but
	// does not hold (--inputs, --kubeconfig); nil finds none, and what
	// needs them waits.
	Inputs Inputs `json:"-"`
	// RemoteTimeout bounds the fetch of one remote manifest of a
	// kustomization (--remote-timeout); DefaultRemoteTimeout when zero.
	// What is fetched, not how long it may take, is the render's input.
	RemoteTimeout time.Duration `json:"-"`
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

// key is what of the options a render depends on, for the render
// cache's key. Inputs say their own (Inputs.Identity).
func (o Options) key() string {
	b, _ := json.Marshal(o)
	id := string(b)
	if o.Inputs != nil {
		id += "\x00" + o.Inputs.Identity()
	}
	return id
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
	if len(parts) != 3 || parts[0] != environment.SourceGitRepository || parts[1] == "" || parts[2] == "" {
		return SelfSource{}, fmt.Errorf("%q is not GitRepository/<namespace>/<name>, e.g. GitRepository/flux-system/platform", s)
	}
	return SelfSource{Namespace: parts[1], Name: parts[2]}, nil
}

// FeatureGates are the feature gates of kustomize-controller that change
// what strata renders, by name, with what each sets.
var FeatureGates = map[string]func(*Options, bool){
	"StrictPostBuildSubstitutions": func(o *Options, on bool) { o.StrictSubstitution = o.StrictSubstitution || on },
	"ObjectLevelWorkloadIdentity":  func(o *Options, on bool) { o.ObjectLevelWorkloadIdentity = on },
}

// ParseFeatureGates applies a --feature-gates value, as kustomize-controller
// reads its own: Name=true|false pairs separated by commas.
func ParseFeatureGates(o *Options, value string) error {
	for _, pair := range strings.Split(value, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		name, raw, ok := strings.Cut(pair, "=")
		set := FeatureGates[name]
		if set == nil {
			var known []string
			for n := range FeatureGates {
				known = append(known, n)
			}
			slices.Sort(known)
			return fmt.Errorf("%q is not one of kustomize-controller's feature gates that change a render: %s", name, strings.Join(known, ", "))
		}
		on, err := strconv.ParseBool(raw)
		if !ok || err != nil {
			return fmt.Errorf("%q: write %s=true or %s=false", pair, name, name)
		}
		set(o, on)
	}
	return nil
}
