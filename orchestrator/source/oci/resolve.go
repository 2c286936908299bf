package oci

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"

	"github.com/Masterminds/semver/v3"
	"github.com/fluxcd/pkg/version"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
)

// Resolve finds the one artefact that ref names in the repository at url
// ("oci://host/repo") and its manifest digest, as Flux's OCIRepository
// does:
//   - a digest is taken as it is (and checked to exist, unless it is
//     already cached, which needs no registry at all);
//   - a semver constraint picks the highest tag that satisfies it; tags
//     that are not versions are ignored, and prereleases only match a
//     constraint that allows them;
//   - a tag, or "latest" when ref is empty, is looked up.
func (c *Client) Resolve(ctx context.Context, url string, ref Ref) (Resolved, error) {
	r, err := c.resolve(ctx, url, ref)
	if err != nil {
		return Resolved{}, fmt.Errorf("resolve %s (%s): %w", url, ref, err)
	}
	return r, nil
}

func (c *Client) resolve(ctx context.Context, url string, ref Ref) (Resolved, error) {
	repo, err := c.repository(url)
	if err != nil {
		return Resolved{}, err
	}
	host := repo.RegistryStr()
	switch {
	case ref.Digest != "":
		h, err := parseDigest(ref.Digest)
		if err != nil {
			return Resolved{}, err
		}
		if _, ok := c.Cached(h.String()); ok {
			return Resolved{URL: url, Digest: h.String()}, nil
		}
		digest, err := c.digest(ctx, repo.Digest(h.String()))
		if err != nil {
			return Resolved{}, classify(err, host, &NotFoundError{URL: url, Ref: ref})
		}
		if digest != h.String() {
			return Resolved{}, fmt.Errorf("registry answered digest %s", digest)
		}
		return Resolved{URL: url, Digest: digest}, nil

	case ref.Semver != "":
		constraint, err := semver.NewConstraint(ref.Semver)
		if err != nil {
			return Resolved{}, fmt.Errorf("invalid semver constraint: %w", err)
		}
		tags, err := remote.List(repo, c.remoteOptions(ctx)...)
		if err != nil {
			return Resolved{}, classify(err, host, &NotFoundError{URL: url, Ref: ref, Repository: true})
		}
		tag, ok := highest(constraint, tags)
		if !ok {
			return Resolved{}, &NotFoundError{URL: url, Ref: ref, Tags: sortTags(tags)}
		}
		digest, err := c.digest(ctx, repo.Tag(tag))
		if err != nil {
			// The tag was listed a moment ago: a 404 now is a race, but
			// still "not found".
			return Resolved{}, classify(err, host, &NotFoundError{URL: url, Ref: Ref{Tag: tag}})
		}
		return Resolved{URL: url, Tag: tag, Version: tag, Digest: digest}, nil

	default:
		tag := cmp.Or(ref.Tag, name.DefaultTag)
		digest, err := c.digest(ctx, repo.Tag(tag))
		if err != nil {
			return Resolved{}, classify(err, host, &NotFoundError{URL: url, Ref: Ref{Tag: tag}})
		}
		r := Resolved{URL: url, Tag: tag, Digest: digest}
		if _, err := version.ParseVersion(tag); err == nil {
			r.Version = tag
		}
		return r, nil
	}
}

// highest returns the highest tag that satisfies the constraint. It is
// source-controller's own selection, step for step, so that both pick the
// same tag from the same list: tags that do not parse as versions are
// skipped, the matches are sorted highest first and the first one wins.
func highest(c *semver.Constraints, tags []string) (string, bool) {
	var matching []*semver.Version
	for _, t := range tags {
		v, err := version.ParseVersion(t)
		if err != nil {
			continue
		}
		if c.Check(v) {
			matching = append(matching, v)
		}
	}
	if len(matching) == 0 {
		return "", false
	}
	sort.Sort(sort.Reverse(semver.Collection(matching)))
	return matching[0].Original(), true
}

// sortTags orders tags for messages: versions from lowest to highest,
// then the other tags alphabetically.
func sortTags(tags []string) []string {
	type tv struct {
		tag string
		v   *semver.Version
	}
	var vs []tv
	var other []string
	for _, t := range tags {
		if v, err := version.ParseVersion(t); err == nil {
			vs = append(vs, tv{t, v})
		} else {
			other = append(other, t)
		}
	}
	slices.SortStableFunc(vs, func(a, b tv) int { return a.v.Compare(b.v) })
	slices.Sort(other)
	out := make([]string, 0, len(tags))
	for _, x := range vs {
		out = append(out, x.tag)
	}
	return append(out, other...)
}

// digest asks the registry for the manifest digest ref names: HEAD first,
// and GET when a registry does not answer HEAD properly, as Flux does.
func (c *Client) digest(ctx context.Context, ref name.Reference) (string, error) {
	opts := c.remoteOptions(ctx)
	desc, err := remote.Head(ref, opts...)
	if err == nil {
		return desc.Digest.String(), nil
	}
	var te *transport.Error
	if !errors.As(err, &te) || te.StatusCode == http.StatusNotFound {
		return "", err
	}
	got, gerr := remote.Get(ref, opts...)
	if gerr != nil {
		return "", gerr
	}
	return got.Digest.String(), nil
}
