package contracts

import (
	"fmt"
	"regexp"
	"strings"
)

// Select picks the documents under prefix whose name matches includeRegex,
// the way the ssm_json_regex module (include_filter_regex) does, and keys
// them by that name. docs is keyed by full key, as a store's documents
// under a path are.
//
// The name of a document is its key relative to prefix, without the
// leading slash: under "/configuration", "/configuration/base" is "base"
// and "/configuration/acme/api" is "acme/api". Documents not under prefix
// are left out; prefix "" or "/" takes every document.
//
// includeRegex (RE2 syntax, as HCL's regex functions take) must match the
// whole name: it is anchored as ^(?:includeRegex)$. So "(base|foo|bar)"
// selects "base", "foo" and "bar" and not "database" or "foobar", and the
// consumer reads values["base"]. An empty includeRegex selects every
// document under prefix. The documents are not copied.
func Select(docs map[string]Document, prefix, includeRegex string) (map[string]Document, error) {
	pattern := includeRegex
	if pattern == "" {
		pattern = ".*"
	}
	// Compiled alone first, so that a pattern such as "a)|(b" cannot
	// escape the anchoring group.
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, fmt.Errorf("select contracts under %s: include regex %q: %w", prefix, includeRegex, err)
	}
	re := regexp.MustCompile(`^(?:` + pattern + `)$`)
	base := strings.Trim(prefix, "/")
	if base != "" {
		base = "/" + base
	}
	base += "/"
	out := map[string]Document{}
	for key, d := range docs {
		name, ok := strings.CutPrefix(key, base)
		if !ok || name == "" {
			continue
		}
		if re.MatchString(name) {
			out[name] = d
		}
	}
	return out, nil
}
