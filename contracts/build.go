package contracts

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Names of the outputs that give the public/private split explicitly.
const (
	OutputPublic  = "public"
	OutputPrivate = "private"
)

// Build makes the document a stack publishes from its outputs.
//
// When only is not empty just those outputs are published, an entry
// "old:new" under the name new; naming an output the stack does not have
// is an error. An output named "public"
// whose value is an object becomes Public, and one named "private" whose
// value is an object becomes Private; a sensitive "public" output is an
// error. Every other output goes by its sensitivity: sensitive outputs to
// Private, the rest to Public. Each key's tofu type goes to Types: an
// output's own type, or for a key of an explicit split the type of that
// attribute or element. The document is Installed, stamped with now
// (UTC, to the second), and shares no maps with outputs.
func Build(stack, version string, outputs map[string]Output, only []string, now time.Time) (Document, error) {
	doc := Document{
		Installed: true,
		Version:   version,
		Stack:     stack,
		UpdatedAt: now.UTC().Truncate(time.Second),
		Public:    map[string]any{},
		Private:   map[string]any{},
	}
	selected, err := selectOutputs(outputs, only)
	if err != nil {
		return Document{}, fmt.Errorf("build contract of stack %s: %w", stack, err)
	}

	// The explicit split first, so other outputs can be checked against it.
	explicit := map[string]bool{}
	if out, ok := selected[OutputPublic]; ok {
		if out.Sensitive {
			return Document{}, fmt.Errorf("build contract of stack %s: output %q is sensitive: "+
				"a sensitive value may never be published as public; rename it to %q", stack, OutputPublic, OutputPrivate)
		}
		if m, ok := out.Value.(map[string]any); ok {
			doc.Public = copyMap(m)
			explicit[OutputPublic] = true
			addAttributeTypes(&doc, m, out.Type)
		}
	}
	if out, ok := selected[OutputPrivate]; ok {
		if m, ok := out.Value.(map[string]any); ok {
			doc.Private = copyMap(m)
			explicit[OutputPrivate] = true
			addAttributeTypes(&doc, m, out.Type)
		}
	}

	names := make([]string, 0, len(selected))
	for name := range selected {
		if !explicit[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		out := selected[name]
		section, target := OutputPublic, doc.Public
		if out.Sensitive {
			section, target = OutputPrivate, doc.Private
		}
		if _, clash := target[name]; clash {
			return Document{}, fmt.Errorf("build contract of stack %s: output %q clashes with key %q of output %q: rename one of them",
				stack, name, name, section)
		}
		target[name] = deepCopy(out.Value)
		addType(&doc, name, out.Type)
	}
	return doc, nil
}

// selectOutputs returns the outputs named in only, or all when only is
// empty. An entry "old:new" publishes output old as new, as the Tofu
// Controller's writeOutputsToSecret.outputs renames it.
func selectOutputs(outputs map[string]Output, only []string) (map[string]Output, error) {
	if len(only) == 0 {
		return outputs, nil
	}
	selected := make(map[string]Output, len(only))
	var missing []string
	for _, entry := range only {
		name, as, renamed := strings.Cut(entry, ":")
		if !renamed {
			as = name
		}
		out, ok := outputs[name]
		if !ok {
			missing = append(missing, fmt.Sprintf("%q", name))
			continue
		}
		selected[as] = out
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		return nil, fmt.Errorf("the stack has no output %s to publish: "+
			"remove it from the published outputs or add the output to the stack", strings.Join(missing, ", "))
	}
	return selected, nil
}
