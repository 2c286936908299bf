package flux

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"

	kustypes "sigs.k8s.io/kustomize/api/types"
)

// plainKust is a kustomization a plain build builds (see plainbuild.go):
// the manifest files it lists, and what kustomize's builtin transformers
// do to the objects they hold, of which a plain build runs the
// transformers itself (see plaintransform.go).
type plainKust struct {
	// resources are the manifest files it lists, each a local .yaml or
	// .yml file of its own directory tree.
	resources []string
	// components are the Components it lists, directories relative to
	// its own.
	components []string
	// patches are its patches, each inline (patch, never path).
	patches []kustypes.Patch
	// annotations are its commonAnnotations.
	annotations map[string]string
	// namespace, prefix and suffix are its namespace, namePrefix and
	// nameSuffix.
	namespace, prefix, suffix string
}

// transforms reports whether a build of k does anything to the objects
// it reads.
func (k plainKust) transforms() bool {
	return k.rewrites() || k.moves()
}

// rewrites reports whether a build of k runs transformers over the
// objects' content: Components, patches, commonAnnotations.
func (k plainKust) rewrites() bool {
	return len(k.components) > 0 || len(k.patches) > 0 || len(k.annotations) > 0
}

// moves reports whether a build of k moves or renames its objects.
func (k plainKust) moves() bool {
	return k.namespace != "" || k.prefix != "" || k.suffix != ""
}

// with returns k with what Flux's generator writes of a Kustomization's
// spec (g) laid over it, as the generator lays it: targetNamespace,
// namePrefix and nameSuffix replace the file's, patches and components
// follow the file's.
func (k plainKust) with(g plainKust) plainKust {
	if g.namespace != "" {
		k.namespace = g.namespace
	}
	if g.prefix != "" {
		k.prefix = g.prefix
	}
	if g.suffix != "" {
		k.suffix = g.suffix
	}
	if len(g.patches) > 0 {
		k.patches = append(slices.Clip(k.patches), g.patches...)
	}
	if len(g.components) > 0 {
		k.components = append(slices.Clip(k.components), g.components...)
	}
	return k
}

// plainResources returns the resources of a kustomization file's content
// when it is plain and does nothing to them (see plainKustomizationOf).
func plainResources(manifest []byte) ([]string, bool) {
	k, ok := plainKustomizationOf(manifest, false)
	if !ok || k.transforms() {
		return nil, false
	}
	return k.resources, true
}

// plainKustomizationOf reads a kustomization file's content when it is
// plain: one document that sets nothing but
//   - its apiVersion and kind (kustomize.config.k8s.io/v1beta1
//     Kustomization, or v1alpha1 Component when component is set, which
//     must say so);
//   - resources, each a local .yaml or .yml file of its directory tree
//     (a Kustomization lists at least one);
//   - components, each a local relative directory (a Kustomization's);
//   - patches, each an inline patch with an optional target;
//   - commonAnnotations, namespace, namePrefix and nameSuffix;
//   - the build metadata withOrigins adds;
//
// each once. ok is false for anything else, which krusty builds: the
// test is of the YAML as written, stricter than kustomize's decoding (a
// key in another case, a number where a string goes, an alias), so that a
// file it takes means to kustomize what it means here.
func plainKustomizationOf(manifest []byte, component bool) (k plainKust, ok bool) {
	dec := yaml3.NewDecoder(bytes.NewReader(manifest))
	var doc, next yaml3.Node
	if dec.Decode(&doc) != nil || dec.Decode(&next) != io.EOF {
		return plainKust{}, false
	}
	if doc.Kind != yaml3.DocumentNode || len(doc.Content) != 1 {
		return plainKust{}, false
	}
	m := doc.Content[0]
	if !writtenMapping(m) {
		return plainKust{}, false
	}
	apiVersion, kind := kustypes.KustomizationVersion, kustypes.KustomizationKind
	if component {
		apiVersion, kind = kustypes.ComponentVersion, kustypes.ComponentKind
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, ok := plainString(m.Content[i])
		if !ok || seen[key] {
			return plainKust{}, false
		}
		seen[key] = true
		v := m.Content[i+1]
		switch key {
		case "apiVersion":
			ok = plainIs(v, apiVersion)
		case "kind":
			ok = plainIs(v, kind)
		case "resources":
			k.resources, ok = plainStrings(v)
			ok = ok && !component
		case "components":
			k.components, ok = plainStrings(v)
			ok = ok && !component && len(k.components) > 0 && !slices.ContainsFunc(k.components, func(c string) bool { return !localComponent(c) })
		case "patches":
			k.patches, ok = plainPatches(v)
		case "commonAnnotations":
			k.annotations, ok = plainStringMap(v)
		case "namespace":
			k.namespace, ok = plainString(v)
			ok = ok && !component
		case "namePrefix":
			k.prefix, ok = plainString(v)
			ok = ok && !component
		case "nameSuffix":
			k.suffix, ok = plainString(v)
			ok = ok && !component
		case "buildMetadata":
			var bm []string
			bm, ok = plainStrings(v)
			ok = ok && slices.Equal(bm, []string{kustypes.OriginAnnotations})
		default:
			ok = false
		}
		if !ok {
			return plainKust{}, false
		}
	}
	if component && !seen["kind"] {
		// kustomize reads a file without a kind as a Kustomization.
		return plainKust{}, false
	}
	if !component && len(k.resources) == 0 {
		return plainKust{}, false
	}
	for _, r := range k.resources {
		if !filepath.IsLocal(filepath.FromSlash(r)) || !isYAML(r) || isKustomizeFile(r) || strings.Contains(r, "://") {
			return plainKust{}, false
		}
	}
	return k, true
}

// localComponent reports whether kustomize's loader takes a component's
// path as a directory of the repository, never a remote one: relative,
// no URL, no host, nothing a git URL holds.
func localComponent(c string) bool {
	if c == "" || filepath.IsAbs(c) || strings.ContainsAny(c, ":?@\\") {
		return false
	}
	for _, e := range strings.Split(c, "/") {
		if e == "" && c != "" {
			continue
		}
		if e != "." && e != ".." && strings.Contains(e, ".") {
			// A first element like a host name ("github.com") may be
			// read as a repository; any later one with a dot, to be
			// sure, is krusty's too.
			return false
		}
	}
	return true
}

// plainPatches reads a kustomization's patches: each a mapping of an
// inline patch (a string) and an optional target, a mapping of
// kustomize's selector fields, each a string.
func plainPatches(n *yaml3.Node) ([]kustypes.Patch, bool) {
	if n.Kind != yaml3.SequenceNode || n.Tag != "!!seq" || n.Anchor != "" {
		return nil, false
	}
	out := make([]kustypes.Patch, 0, len(n.Content))
	for _, p := range n.Content {
		if !writtenMapping(p) || !uniqueScalarKeys(p) {
			return nil, false
		}
		var patch kustypes.Patch
		for i := 0; i+1 < len(p.Content); i += 2 {
			key, ok := plainString(p.Content[i])
			if !ok {
				return nil, false
			}
			v := p.Content[i+1]
			switch key {
			case "patch":
				if patch.Patch, ok = plainString(v); !ok {
					return nil, false
				}
			case "target":
				if patch.Target, ok = plainSelector(v); !ok {
					return nil, false
				}
			default:
				return nil, false
			}
		}
		out = append(out, patch)
	}
	return out, true
}

// plainSelector reads a patch's target.
func plainSelector(n *yaml3.Node) (*kustypes.Selector, bool) {
	fields, ok := plainStringMap(n)
	if !ok {
		return nil, false
	}
	s := &kustypes.Selector{}
	for k, v := range fields {
		if !setSelector(s, k, v) {
			return nil, false
		}
	}
	return s, true
}

// setSelector sets a field of a patch's target, named as kustomize's
// selector and Flux's name it; false for any other name.
func setSelector(s *kustypes.Selector, field, v string) bool {
	switch field {
	case "group":
		s.Group = v
	case "version":
		s.Version = v
	case "kind":
		s.Kind = v
	case "name":
		s.Name = v
	case "namespace":
		s.Namespace = v
	case "labelSelector":
		s.LabelSelector = v
	case "annotationSelector":
		s.AnnotationSelector = v
	default:
		return false
	}
	return true
}

// writtenMapping reports whether a node is a mapping as written: no tag,
// no anchor.
func writtenMapping(n *yaml3.Node) bool {
	return n.Kind == yaml3.MappingNode && n.Tag == "!!map" && n.Anchor == ""
}

// plainString returns a string scalar as written.
func plainString(n *yaml3.Node) (string, bool) {
	return n.Value, n.Kind == yaml3.ScalarNode && n.Tag == "!!str" && n.Anchor == ""
}

// plainIs reports whether a node is the string want.
func plainIs(n *yaml3.Node, want string) bool {
	s, ok := plainString(n)
	return ok && s == want
}

// plainStrings returns a sequence of string scalars as written.
func plainStrings(n *yaml3.Node) ([]string, bool) {
	if n.Kind != yaml3.SequenceNode || n.Tag != "!!seq" || n.Anchor != "" {
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		v, ok := plainString(c)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// plainStringMap returns a mapping of distinct string keys to strings as
// written.
func plainStringMap(n *yaml3.Node) (map[string]string, bool) {
	if !writtenMapping(n) {
		return nil, false
	}
	out := make(map[string]string, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, ok := plainString(n.Content[i])
		if !ok {
			return nil, false
		}
		if _, twice := out[k]; twice {
			return nil, false
		}
		v, ok := plainString(n.Content[i+1])
		if !ok {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}
