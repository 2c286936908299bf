package flux

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/strata-iac/strata/internal/suggest"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// fluxKinds are the kinds of every Flux and Tofu Controller API group, and
// the versions of them strata reads. A kind of one of these groups that is
// not listed is a typo: the API server would refuse it.
var fluxKinds = map[string]map[string][]string{
	groupKustomize: {kindKustomization: {"v1", "v1beta2", "v1beta1"}},
	groupSource: {
		environment.SourceGitRepository: {"v1", "v1beta2", "v1beta1"}, environment.SourceOCIRepository: {"v1", "v1beta2"},
		"HelmRepository": nil, "HelmChart": nil, "Bucket": nil, "ExternalArtifact": nil,
	},
	// v1alpha1 has v1alpha2's fields, fewer of them: the Tofu Controller
	// serves both with no conversion but the apiVersion.
	groupInfra:                       {kindTerraform: {"v1alpha2", "v1alpha1"}},
	"helm.toolkit.fluxcd.io":         {"HelmRelease": nil},
	"notification.toolkit.fluxcd.io": {"Alert": nil, "Provider": nil, "Receiver": nil},
	"image.toolkit.fluxcd.io":        {"ImageRepository": nil, "ImagePolicy": nil, "ImageUpdateAutomation": nil},
}

// coreKinds are the core (v1) kinds strata reads.
var coreKinds = []string{kindConfigMap, kindSecret}

// sortedKeys returns a map's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkKind checks an object's apiVersion and kind against the Flux and
// Tofu Controller APIs: an unknown kind of a known group, a group that
// looks like a misspelt known one, a core kind that looks like ConfigMap
// or Secret, and a version of a kind strata reads that it does not read
// are problems.
func checkKind(file string, m meta) *diag.Problem {
	group, version := m.group(), m.APIVersion
	if i := strings.LastIndex(version, "/"); i >= 0 {
		version = version[i+1:]
	}
	ref := m.ref()
	if kinds, ok := fluxKinds[group]; ok {
		versions, ok := kinds[m.Kind]
		if !ok {
			fix := fmt.Sprintf("use one of the kinds of %s: %s", group, strings.Join(sortedKeys(kinds), ", "))
			if c, d := suggest.Closest(m.Kind, sortedKeys(kinds)); d <= 3 {
				fix = fmt.Sprintf("write kind: %s", c)
			}
			return &diag.Problem{
				File:    file,
				Object:  ref,
				Message: fmt.Sprintf("kind %q is not a kind of the API group %s", m.Kind, group),
				Fix:     fix + " in " + file,
			}
		}
		if versions != nil && !slices.Contains(versions, version) {
			return &diag.Problem{
				File:    file,
				Object:  ref,
				Message: fmt.Sprintf("apiVersion %q: strata reads %s only as %s", m.APIVersion, m.Kind, strings.Join(prefixed(group, versions), " or ")),
				Fix:     fmt.Sprintf("write apiVersion: %s/%s in %s", group, versions[0], file),
			}
		}
		return nil
	}
	if group == groupCore {
		if c, d := suggest.Closest(m.Kind, coreKinds); d > 0 && d <= 2 {
			return &diag.Problem{
				File:    file,
				Object:  ref,
				Message: fmt.Sprintf("kind %q looks like a misspelling of %s", m.Kind, c),
				Fix:     fmt.Sprintf("write kind: %s in %s", c, file),
			}
		}
		return nil
	}
	if c, d := suggest.Closest(group, sortedKeys(fluxKinds)); d > 0 && d <= 4 {
		return &diag.Problem{
			File:    file,
			Object:  ref,
			Message: fmt.Sprintf("apiVersion %q: the API group %s looks like a misspelling of %s, so the object would not be read", m.APIVersion, group, c),
			Fix:     fmt.Sprintf("write apiVersion: %s/%s in %s", c, version, file),
		}
	}
	return nil
}

// prefixed prefixes each version with the group.
func prefixed(group string, versions []string) []string {
	out := make([]string, len(versions))
	for i, v := range versions {
		out[i] = group + "/" + v
	}
	return out
}
