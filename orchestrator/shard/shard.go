package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Key is the label Flux shards its objects by.
const Key = "sharding.fluxcd.io/key"

// Default is the default controller's selector: every object without a
// shard key, as Flux's main controllers take them in a sharded cluster.
const Default = "!" + Key

// JobLabel labels the runner Jobs of a shard other than the default with
// the shard's name; the default shard's Jobs have no such label.
const JobLabel = "strata.dev/shard"

// Shard is the objects one controller reconciles.
type Shard struct {
	sel labels.Selector
	// text is the selector as given, trimmed.
	text string
	name string
}

// Parse reads a label selector in the syntax of kubectl's --selector
// and Flux's --watch-label-selector. "" selects every object.
func Parse(selector string) (Shard, error) {
	text := strings.TrimSpace(selector)
	sel, err := labels.Parse(text)
	if err != nil {
		return Shard{}, fmt.Errorf("label selector %q: %w", selector, err)
	}
	s := Shard{sel: sel, text: text}
	s.name = nameOf(sel)
	return s, nil
}

// nameOf names a shard: "" for the default one; the key's value for
// "sharding.fluxcd.io/key in (v)" or "=v"; those values joined by "-"
// for several, when that is a DNS label of at most 40 characters; "all"
// for every object; else "s-" and a hash of the selector. It is always
// both a label value and a DNS label.
func nameOf(sel labels.Selector) string {
	reqs, _ := sel.Requirements()
	if len(reqs) == 0 {
		return "all"
	}
	if len(reqs) == 1 && reqs[0].Key() == Key {
		r := reqs[0]
		switch r.Operator() {
		case selection.DoesNotExist:
			return ""
		case selection.In, selection.Equals, selection.DoubleEquals:
			vals := r.Values().List()
			// A Lease's name takes it after "strata-", and a Job's label
			// as its value: a DNS label is both.
			if n := strings.Join(vals, "-"); len(validation.IsDNS1123Label(n)) == 0 && len(n) <= 40 && n != "all" {
				return n
			}
		}
	}
	h := sha256.Sum256([]byte(sel.String()))
	return "s-" + hex.EncodeToString(h[:])[:10]
}

// String is the selector as given.
func (s Shard) String() string { return s.text }

// Name is the shard's name: "" for the default shard.
func (s Shard) Name() string { return s.name }

// IsDefault reports whether s is the default shard (Default).
func (s Shard) IsDefault() bool { return s.name == "" }

// Selector is the selector in the API server's syntax, for a list or a
// watch ("" for every object).
func (s Shard) Selector() string {
	if s.sel == nil {
		return ""
	}
	return s.sel.String()
}

// Matches reports whether an object with these labels is the shard's.
// The zero Shard matches every object.
func (s Shard) Matches(l map[string]string) bool {
	if s.sel == nil {
		return true
	}
	return s.sel.Matches(labels.Set(l))
}

// LeaseName is the Lease of the shard's replicas: base for the default
// shard, base-<name> for the others.
func (s Shard) LeaseName(base string) string {
	if s.IsDefault() {
		return base
	}
	return base + "-" + s.name
}

// JobSelector selects the runner Jobs of the shard among all runner
// Jobs: those labelled with its name, or for the default shard those
// with no shard label.
func (s Shard) JobSelector() string {
	if s.IsDefault() {
		return "!" + JobLabel
	}
	return JobLabel + "=" + s.name
}

// JobLabels are the labels a runner Job of the shard carries beside its
// own: none for the default shard.
func (s Shard) JobLabels() map[string]string {
	if s.IsDefault() {
		return nil
	}
	return map[string]string{JobLabel: s.name}
}

// Describe names, for an error, the labels of an object that the
// shard's selector reads: "sharding.fluxcd.io/key=shard1", or "no
// sharding.fluxcd.io/key label".
func (s Shard) Describe(l map[string]string) string {
	keys := map[string]bool{}
	if s.sel != nil {
		reqs, _ := s.sel.Requirements()
		for _, r := range reqs {
			keys[r.Key()] = true
		}
	}
	keys[Key] = true
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if v, ok := l[k]; ok {
			parts = append(parts, k+"="+v)
		} else {
			parts = append(parts, "no "+k+" label")
		}
	}
	return strings.Join(parts, ", ")
}
